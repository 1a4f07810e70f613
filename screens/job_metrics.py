"""`JobMetrics`: the job screen's training progress — the shown log parsed as it arrives, each
rank's speed, and (on Azure ML, when the packages are there) the job's MLflow metrics.

The screen hands every batch of lines to `take()` (parsing is ~1 µs a line: it never slows the
log), and the pane redraws at most twice a second, only while it is shown. Ranks' speeds come
from the last 64 KB of each rank's log every few seconds (no rank log is read whole for this),
so a rank ≥ 20 % slower than the median is named a straggler whichever log is on screen.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from tui.logs.names import label, rank_logs
from tui.logs.progress import ProgressTracker, Series, merge_series, stragglers
from tui.logs.sources import read_tail
from widgets.metrics_chart import MetricsPane, RankRate

if TYPE_CHECKING:
    from screens.job import JobScreen

REDRAW_EVERY = 0.5
"""Seconds between redraws of the pane while progress arrives."""
RANKS_EVERY = 5.0
"""Seconds between samples of the ranks' speeds."""
RANK_TAIL = 64 << 10
"""Bytes read from the end of each rank's log per sample."""
MLFLOW_EVERY = 30.0
"""Seconds between reads of the job's MLflow metrics (a run-history call per metric)."""


class JobMetrics:
    """Progress of the log on display, the ranks' speeds and MLflow series, for one job screen."""

    def __init__(self, screen: JobScreen) -> None:
        self.screen = screen
        self.tracker = ProgressTracker("log")
        """The shown log's series and standing."""
        self.ranks: list[RankRate] = []
        """Each rank's steps/s at the last sample."""
        self.mlflow: dict[str, Series] = {}
        """The job's MLflow metrics (Azure ML), by name."""
        self.note: str | None = None
        """A line for the pane: why MLflow metrics are missing, say."""
        self._dirty = True
        self._rank_trackers: dict[str, ProgressTracker] = {}

    @property
    def pane(self) -> MetricsPane:
        return self.screen.query_one(MetricsPane)

    @property
    def shown(self) -> bool:
        return self.pane.has_class("-shown")

    def reset(self) -> None:
        """Another log is on display (or it was rewritten): start its progress again."""
        self.tracker = ProgressTracker("log")
        self._dirty = True

    def head_read(self, head: ProgressTracker) -> None:
        """The lines before the tail a log was opened at were read: their points go in front."""
        self.tracker.prepend(head)
        self._dirty = True

    def take(self, lines: list[str], partial: str) -> None:
        """One batch of the shown log (every line is parsed, shown or not)."""
        if lines and self.tracker.feed(lines):
            self._dirty = True
        if partial:
            self.tracker.feed_partial(partial)
            self._dirty = True

    def toggle(self) -> None:
        pane = self.pane
        pane.toggle_class("-shown")
        if pane.has_class("-shown"):
            self._dirty = True
            self.draw()
            self.screen.run_worker(
                self._sample_ranks(), group="job-ranks", exclusive=True, exit_on_error=False
            )
            if self.screen.handle.backend == "azureml":
                self.screen.run_worker(
                    self._read_mlflow, thread=True, group="job-mlflow", exclusive=True,
                    exit_on_error=False,
                )  # fmt: skip

    def draw(self) -> None:
        """Redraw the pane if it is shown and anything changed since the last draw."""
        if not self._dirty or not self.screen.is_mounted or not self.shown:
            return
        self._dirty = False
        series = merge_series(self.tracker.series, self.mlflow)
        self.pane.show(series, self.tracker.standing(), self.ranks, self.note)

    # ---- the ranks ------------------------------------------------------------------------

    async def _sample_ranks(self) -> None:
        while self.shown:
            logs = rank_logs(self.screen.sources)
            if len(logs) > 1:
                rates: dict[str, float | None] = {}
                for log in logs:
                    rates[log.name] = await self._rank_rate(log.name)
                slow = stragglers({k: v for k, v in rates.items() if v})
                self.ranks = [
                    RankRate(label(log.name, logs), rates[log.name], log.name in slow)
                    for log in logs
                ]
                self._dirty = True
                self.draw()
            await asyncio.sleep(RANKS_EVERY)

    async def _rank_rate(self, name: str) -> float | None:
        source = self.screen.sources.get(name)
        if source is None:
            return None
        try:
            _, data = await read_tail(source, RANK_TAIL)
        except Exception:  # a rank's log that cannot be read now has no speed now
            return None
        tracker = self._rank_trackers.setdefault(name, ProgressTracker(name))
        *complete, last = data.decode("utf-8", "replace").split("\n")
        now = time.monotonic()
        tracker.feed([_latest(line) for line in complete[1:]], now=now)
        tracker.feed_partial(_latest(last), now=now)
        tracker.series.clear()  # only the speed is wanted here
        return tracker.standing().rate

    # ---- MLflow (Azure ML) ----------------------------------------------------------------

    def _read_mlflow(self) -> None:
        from tui.backends.azureml.metrics import MlflowUnavailable, job_metrics

        while self.screen.is_mounted and self.shown:
            try:
                found = job_metrics(self.screen.backend, self.screen.handle)
            except MlflowUnavailable as err:
                self._set_mlflow({}, str(err))
                return
            except Exception as err:  # shown in the pane; the log's own series stay
                self._set_mlflow(self.mlflow, f"MLflow metrics: {type(err).__name__}: {err}")
            else:
                self._set_mlflow(found, None if found else "MLflow: the job logged no metrics")
            deadline = time.monotonic() + MLFLOW_EVERY
            while time.monotonic() < deadline and self.screen.is_mounted and self.shown:
                time.sleep(0.2)

    def _set_mlflow(self, series: dict[str, Series], note: str | None) -> None:
        def apply() -> None:
            self.mlflow, self.note, self._dirty = series, note, True
            self.draw()

        self.screen.app.call_from_thread(apply)


def _latest(line: str) -> str:
    """A line as a terminal last showed it (a progress bar redrawn with `\\r`)."""
    if "\r" not in line:
        return line
    return next((part for part in reversed(line.split("\r")) if part.strip()), "")
