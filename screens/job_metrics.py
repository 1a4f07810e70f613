"""`JobMetrics`: the job screen's training progress — the shown log parsed as it arrives, each
rank's speed, and (on Azure ML, when the packages are there) the job's MLflow metrics.

The screen hands every batch of lines to `take()` (parsing is ~1 µs a line: it never slows the
log), and the pane redraws at most twice a second, only while it is shown. Ranks' speeds come
from what each rank's log gained since the last sample, every few seconds while the job runs
(at most its last 64 KB, only logs the rank strip saw grow, 32 logs a sample, so the cost
follows the logs' growth, not ranks × samples); a rank ≥ 20 % slower than the median is named
a straggler in the pane and marked in the rank strip, whichever log is on screen.

The log on display has one standing: its rank's step and speed in the strip and in the pane's
speed by rank are the pane's header's own, drawn in the same call, so they never disagree.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from tui.logs.names import label, rank_logs
from tui.logs.progress import ProgressTracker, Series, Standing, merge_series, stragglers
from widgets.metrics_chart import MetricsPane, RankRate

if TYPE_CHECKING:
    from screens.job_links import JobLinks

REDRAW_EVERY = 0.5
"""Seconds between redraws of the pane while progress arrives."""
RANKS_EVERY = 5.0
"""Seconds between samples of the ranks' speeds."""
RANK_TAIL = 64 << 10
"""At most this many of the bytes a rank's log gained are read per sample (its end)."""
RANK_READS = 32
"""Rank logs read per sample at most (a 1,024-rank job's are read in turns)."""
MLFLOW_EVERY = 30.0
"""Seconds between reads of the job's MLflow metrics (a run-history call per metric)."""


class JobMetrics:
    """Progress of the log on display, the ranks' speeds and MLflow series, for one job screen.

    `pane` finds the screen's `MetricsPane`; of the rank strip's part it reads whether the job
    has ended (`ended`) and each rank log's size (`sizes`), and it hands the strip each rank's
    speed and the stragglers (`speeds`)."""

    def __init__(
        self,
        job: JobLinks,
        *,
        pane: Callable[[], MetricsPane],
        ended: Callable[[], bool],
        sizes: Callable[[], dict[str, int]],
        speeds: Callable[[dict[int, str | None], set[int]], None],
    ) -> None:
        self.job = job
        self._pane, self._ended, self._sizes, self._speeds = pane, ended, sizes, speeds
        self.tracker = ProgressTracker("log")
        """The shown log's series and standing."""
        self.log_name: str | None = None
        """The log on display (whose progress `tracker` holds)."""
        self.ranks: list[RankRate] = []
        """Each rank's steps/s at the last sample (the log on display's: its tracker's)."""
        self.mlflow: dict[str, Series] = {}
        """The job's MLflow metrics (Azure ML), by name."""
        self.note: str | None = None
        """A line for the pane: why MLflow metrics are missing, say."""
        self._dirty = True
        self._rank_trackers: dict[str, ProgressTracker] = {}
        self.ranks_every = RANKS_EVERY
        """Seconds between samples of the ranks' speeds."""
        self._read_to: dict[str, int] = {}  # rank log → the end of its last line read
        self._read_at: dict[str, float] = {}  # rank log → when it was last read
        self._slow: set[int] = set()  # the stragglers' ranks at the last sample
        self._told: tuple[int | None, str | None] = (None, None)  # the strip's shown rank

    @property
    def pane(self) -> MetricsPane:
        return self._pane()

    @property
    def shown(self) -> bool:
        return self.pane.has_class("-shown")

    def reset(self, log: str | None = None) -> None:
        """Another log is on display (`log`), or the one on display was rewritten (None):
        start its progress again."""
        if log is not None:
            self.log_name = log
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
            self.sample_ranks()
            if self.job.handle.backend == "azureml":
                self.job.run_worker(
                    self._read_mlflow, thread=True, group="job-mlflow", exclusive=True,
                    exit_on_error=False,
                )  # fmt: skip

    def draw(self) -> None:
        """If anything changed since the last draw: the shown rank's step and speed in the
        strip and, while it is shown, the pane, both from one standing."""
        if not self._dirty or not self.job.mounted():
            return
        self._dirty = False
        standing = self.tracker.standing()
        rank = self._shown_rank()
        if rank is not None and self._told != (rank, value := _speed(standing)):
            self._told = (rank, value)
            self._speeds({rank: value}, self._slow)
        if self.shown:
            series = merge_series(self.tracker.series, self.mlflow)
            self.pane.show(series, standing, self._rank_rates(standing), self.note)

    def _shown_rank(self) -> int | None:
        """The rank whose log is on display; None for another log (a system log)."""
        return next((r.rank for r in rank_logs(self.job.sources) if r.name == self.log_name), None)

    def _rank_rates(self, standing: Standing) -> list[RankRate]:
        """The ranks' speeds, the one on display's as the pane's header has it."""
        label_shown = label(self.log_name, rank_logs(self.job.sources)) if self.log_name else None
        return [replace(r, rate=standing.rate) if r.label == label_shown else r for r in self.ranks]

    # ---- the ranks ------------------------------------------------------------------------

    def sample_ranks(self) -> None:
        """Sample the ranks' speeds now and every `ranks_every` s until the job has ended."""
        self.job.run_worker(
            self._sample_ranks, group="job-rank-speeds", exclusive=True, exit_on_error=False
        )

    async def _sample_ranks(self) -> None:
        while self.job.mounted():
            ended = self._ended()
            logs = rank_logs(self.job.sources)
            if len(logs) > 1:
                await self._sample(logs)
            if ended:
                return  # the last sample after the end was taken
            # Until the next sample, or the end: the last sample is taken as the job ends, so
            # the bytes a rank wrote last are not dated seconds after it stopped.
            deadline = time.monotonic() + self.ranks_every
            while time.monotonic() < deadline and not self._ended():
                await asyncio.sleep(0.2)

    async def _sample(self, logs: list) -> None:
        """Read what each grown rank log gained since its last sample (the sizes are the rank
        strip's last poll: no request of its own), at most `RANK_READS` logs, the least
        recently read first; then each rank's speed to the pane and the strip."""
        sizes = self._sizes()
        grown = [
            log.name for log in logs if sizes.get(log.name, 0) > self._read_to.get(log.name, 0)
        ]
        grown.sort(key=lambda name: self._read_at.get(name, -1.0))
        for name in grown[:RANK_READS]:
            await self._read_new(name, sizes[name])
        standings = {log.name: self._standing(log.name) for log in logs}
        rates = {n: s.rate for n, s in standings.items() if s is not None}
        slow = stragglers({k: v for k, v in rates.items() if v})
        self.ranks = [
            RankRate(label(log.name, logs), rates.get(log.name), log.name in slow) for log in logs
        ]
        values = {log.rank: _speed(s) for log in logs if (s := standings[log.name]) is not None}
        self._slow = {log.rank for log in logs if log.name in slow}
        self._speeds(values, self._slow)
        self._told = (None, None)  # the shown rank's value was just given: draw gives it again
        self._dirty = True
        self.draw()

    def _standing(self, name: str) -> Standing | None:
        """A rank log's standing: the log on display's is its own tracker's (what the pane's
        header shows); another's, what its samples read (None before its first)."""
        if name == self.log_name:
            return self.tracker.standing()
        tracker = self._rank_trackers.get(name)
        return tracker.standing() if tracker is not None else None

    async def _read_new(self, name: str, size: int) -> None:
        """Feed a rank's tracker the bytes its log gained (the last `RANK_TAIL` of them)."""
        source = self.job.sources.get(name)
        if source is None:
            return
        done = self._read_to.get(name, 0)
        start = max(done, size - RANK_TAIL)
        try:
            data = await source.read(start, size - start)
        except Exception:  # a rank's log that cannot be read now has no new speed now
            return
        now = time.monotonic()
        self._read_at[name] = now
        end = data.rfind(b"\n") + 1
        lines = data[:end].decode("utf-8", "replace").split("\n")[:-1]
        partial = data[end:].decode("utf-8", "replace")
        if start > done:  # began mid-line: that piece is not a line
            if lines:
                lines = lines[1:]
            else:
                partial = partial.partition("\r")[2]
        tracker = self._rank_trackers.setdefault(name, ProgressTracker(name))
        tracker.feed([_latest(line) for line in lines], now=now)
        tracker.feed_partial(_latest(partial), now=now)
        tracker.series.clear()  # only the speed is wanted here
        if end:
            self._read_to[name] = start + end

    # ---- MLflow (Azure ML) ----------------------------------------------------------------

    def _read_mlflow(self) -> None:
        from tui.backends.azureml.metrics import MlflowUnavailable, job_metrics

        while self.job.mounted() and self.shown:
            try:
                found = job_metrics(self.job.backend, self.job.handle)
            except MlflowUnavailable as err:
                self._set_mlflow({}, str(err))
                return
            except Exception as err:  # shown in the pane; the log's own series stay
                self._set_mlflow(self.mlflow, f"MLflow metrics: {type(err).__name__}: {err}")
            else:
                self._set_mlflow(found, None if found else "MLflow: the job logged no metrics")
            deadline = time.monotonic() + MLFLOW_EVERY
            while time.monotonic() < deadline and self.job.mounted() and self.shown:
                time.sleep(0.2)

    def _set_mlflow(self, series: dict[str, Series], note: str | None) -> None:
        def apply() -> None:
            self.mlflow, self.note, self._dirty = series, note, True
            self.draw()

        self.job.call_from_thread(apply)


def _speed(standing: Standing) -> str | None:
    """What the strip shows of a rank's progress: `step 120 · 4.0 steps/s`."""
    parts = []
    if standing.step is not None:
        parts.append(f"step {standing.step}")
    if standing.rate:
        parts.append(f"{standing.rate:.3g} steps/s")
    return " · ".join(parts) or None


def _latest(line: str) -> str:
    """A line as a terminal last showed it (a progress bar redrawn with `\\r`)."""
    if "\r" not in line:
        return line
    return next((part for part in reversed(line.split("\r")) if part.strip()), "")
