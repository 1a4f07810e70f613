"""Training progress read from the log lines people already print: loss, lr, accuracy, step, epoch.

A line is read by its structure (tui/logs/progress_line.py: counters, key–value pairs, dicts,
tqdm bars, table rows) and its keys by their words (tui/logs/progress_names.py: which metric,
evaluation or training, which loss is *the* training loss), not by a pattern per trainer.
`parse_line(line)` reads one line alone; `LineReader` reads a stream, remembering a table's
header and an evaluation phase. Evaluation metrics (`val_loss`, …) are series of their own and
never the training loss.

`ProgressTracker` turns a log's lines into series against step, the current epoch and step, the
rate (steps/s, from tqdm or from step arrival times) and an ETA when the total is known;
tui/logs/progress_bulk.py feeds one a log file's bytes in bulk (`dtrain-tui metrics`).
No Textual, no Azure here.
"""

from __future__ import annotations

import math
import time
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from operator import lt

from tui.logs.progress_gate import DIGIT, MAX_LINE, hinted, phase
from tui.logs.progress_line import Progress, StreamState, read_line
from tui.logs.progress_names import metric_name
from tui.logs.progress_series import Series, _epochs_of, merge_series
from tui.logs.progress_shapes import ShapeCache
from tui.logs.progress_templates import Recurrence, template

__all__ = [
    "MAX_LINE", "LineReader", "Progress", "ProgressTracker", "Series", "Standing",
    "merge_series", "metric_name", "parse_line", "stragglers",
]  # fmt: skip


def parse_line(line: str) -> Progress | None:
    """The progress `line` reports on its own (no stream memory), or None (most lines)."""
    return read_line(line)


_has_digit = DIGIT.search


class LineReader:
    """Reads one log stream's lines in order, remembering what earlier lines said: a table's
    header (column names printed once, then rows), an evaluation phase (`Test:` lines
    and the summary after them), the epoch of an `Epoch N/M` line."""

    def __init__(self) -> None:
        self.state = StreamState()
        self.shapes = ShapeCache()
        """The plans by shape (tui/logs/progress_bulk.py reads runs of lines with them too)."""
        self._shaped = self.shapes.read

    def read(self, line: str) -> Progress | None:
        """The progress `line` reports, or None."""
        state = self.state
        try:
            if len(line) > MAX_LINE:
                return None
            if state.header is None:
                if _has_digit(line) is None:  # no number: at most a table's header
                    found = read_line(line, state)
                    if state.header is not None:
                        self.shapes.forget()  # plans read lines as if there were none
                    return found
                if not hinted(line):
                    if (said := phase(line)) is not None:  # `2024-… INFO Validation`
                        state.evaluating = said
                    return None  # most lines
            return self._shaped(line, state)
        except (ValueError, OverflowError, RecursionError, MemoryError):
            return None  # junk that looked like a number or a dict: not progress


# ---- a log's series and where training stands ------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """Where training stands: what the status line and the metrics pane show."""

    step: int | None = None
    total: int | None = None
    """Steps in all when known (`None`: no ETA to the end)."""
    epoch: float | None = None
    epochs: int | None = None
    rate: float | None = None
    """Steps per second."""
    eta: float | None = None
    """Seconds left: to the end of training when `total` is known, else to the end of the epoch
    (`eta_scope` says which)."""
    eta_scope: str = "training"
    diverged: bool = False
    """A line printed the training loss as `nan` or `inf` (no point of the loss series)."""
    diverged_step: int | None = None
    """The step of the last such line, where it had one..."""
    diverged_epoch: float | None = None
    """...and its epoch."""


RATE_WINDOW = 60.0
"""Seconds of step arrivals a rate without tqdm is measured over."""
_SAME_MOMENT = 0.5  # arrivals this close are one moment (a backlog read at once has no rate)
STALL_TIMES = 5.0
"""A step still for this many times the longest wait between its moves seen so far is a stall
(the log's own rhythm: an evaluation pass or a checkpoint every N steps widens it)..."""
STALL_FLOOR = 120.0
"""...and never sooner than two minutes."""
STALL_UNTIMED = 600.0
"""Where no wait between moves was seen (the log read in one go): ten minutes, as long as the
stack dumper waits before a rank prints its own stacks."""


class ProgressTracker:
    """Feeds on a log's lines; keeps each metric's series and the latest standing.

    `feed(lines)` takes complete lines (points are added); `feed_partial(text)` the live last
    line (a tqdm bar mid-redraw: it moves the step and rate, adds no point). `now` is injected
    for tests; it defaults to `time.monotonic()`.
    """

    def __init__(self, source: str = "log") -> None:
        self.source = source
        self.series: dict[str, Series] = {}
        """Metric name → its points, in the order first seen."""
        self.lines_parsed = 0
        """Lines that reported progress."""
        self._step: int | None = None  # the global step
        self._printed_step: int | None = None  # the step as the log printed it (a point's x)
        self._total: int | None = None
        self._epoch: float | None = None
        self._epochs: int | None = None
        self._epoch_index: int | None = None
        self._per_epoch_total: int | None = None
        self._bar_rate: float | None = None
        self._bar_left: float | None = None
        self._bar_total = 0  # the main bar: the one with the largest total (not eval bars)
        self._arrivals: deque[tuple[float, int]] = deque()
        self._moved: tuple[float, int] | None = None  # when the step last changed, and to what
        self._waits: deque[float] = deque(maxlen=64)  # the latest waits between its changes
        self._count = 0
        self.reader = LineReader()
        """Reads this log's lines in order (tui/logs/progress_bulk.py shares its shapes)."""
        self._first_epoch: float | None = None
        self._timed: list[tuple[float, int]] = []  # the first and the last timed step
        self._diverged: tuple[int | None, float | None] | None = None  # the last nan loss's
        self.recurrence = Recurrence()
        """Which names are series: a known metric's, or one whose line's template recurred
        (tui/logs/progress_templates.py); the others' points are held."""

    def feed(self, lines: list[str] | tuple[str, ...], now: float | None = None) -> int:
        """Take complete lines; how many reported progress."""
        found = 0
        read = self.reader.read
        for line in lines:
            progress = read(line)
            if progress is None or progress.kind == "ignored":
                continue
            found += 1
            self._apply(progress, now, True, line)
        self.lines_parsed += found
        return found

    def feed_progress(self, progress: Progress, line: str, now: float | None = None) -> None:
        """Take what one complete line reported, read elsewhere (a plan over its bytes)."""
        self._apply(progress, now, True, line)
        self.lines_parsed += 1

    def feed_partial(self, text: str, now: float | None = None) -> None:
        """Take the unfinished last line (a bar being redrawn): step and rate, no points."""
        if text and (progress := parse_line(text)) is not None and progress.kind != "ignored":
            self._apply(progress, now, False, text)

    def _apply(self, p: Progress, now: float | None, add_points: bool, line: str) -> None:
        if p.epochs is not None:
            self._epochs = p.epochs
        if p.epoch is not None:
            self._epoch = p.epoch
        if p.epoch_index is not None:
            self._epoch_index = p.epoch_index
        if p.step is not None:
            step, total, printed = p.step, p.total, p.step
            if p.kind == "tqdm" and total is not None:
                if total < self._bar_total and not p.per_epoch:
                    step = None  # a smaller bar (evaluation) does not move training's step
                else:
                    self._bar_total = total
            if step is not None:
                if p.per_epoch and total is not None:
                    self._per_epoch_total = total
                    step = self._epochs_done() * total + step
                    total = self._epochs * total if self._epochs else None
                    if p.kind == "tqdm":
                        self._bar_rate, self._bar_left = p.rate, p.left
                elif p.kind == "tqdm":
                    self._bar_rate, self._bar_left = p.rate, p.left
                self._step, self._printed_step = step, printed
                if total is not None:
                    self._total = total
                self._arrived(step, time.monotonic() if now is None else now)
                if p.at is not None:
                    self._printed(p.at, step)
        if p.diverged:
            self._diverged = (self._step, self._epoch)
        if add_points and p.values:
            self._count += 1
            n = float(self._count)
            x = math.nan if self._printed_step is None else float(self._printed_step)
            key = None
            for name, value in p.values.items():
                series = self.series.get(name)
                if series is None:
                    key = template(line) if key is None else key
                    points = self.recurrence.hold(name, key, (x, value, self._epoch, n))
                    if points is None:
                        continue  # not a series (yet): its line's template has not recurred
                    series = self.series[name] = Series(name, source=self.source)
                    for point in points[:-1]:
                        series.add(*point)
                series.add(x, value, self._epoch, n)

    def take_run(
        self,
        n: int,
        values: list[tuple[str, list[float]]],
        steps: list[float] | None,
        epochs: list[float] | None,
        carried: float | None,
        in_all: int | None,
        total: int | None,
        index: int | None,
        now: float | None,
        diverged: bool = False,
    ) -> None:
        """`n` lines of one shape read a column at a time (tui/logs/progress_bulk.py): their
        points added at once, and the state the last of them leaves, as `feed` line by line
        would. `values`: each metric's column; `steps`, `epochs`: each line's, or None where
        the shape prints none (`carried`: the epoch an earlier line set); `in_all`, `total`,
        `index`: the last the run printed (the epochs in all, the steps in all, the 0-based
        epoch); `diverged`: the shape prints the loss as `nan`. Steps must be whole and rising
        where the lines print their time."""
        if in_all is not None:
            self._epochs = in_all
        if epochs is not None:
            self._epoch = epochs[-1]
        elif carried is not None:
            self._epoch = carried
        if index is not None:
            self._epoch_index = index
        if steps is not None:
            if total is not None:
                self._total = total
            self._step = self._printed_step = int(steps[-1])
            self._arrived(self._step, time.monotonic() if now is None else now)
        if diverged:
            self._diverged = (self._step, self._epoch)
        if values:
            rewinds = 0
            if steps is not None:
                xs = steps
                rewinds = sum(map(lt, islice(steps, 1, None), steps))
            elif self._printed_step is not None:
                xs = [float(self._printed_step)] * n
            else:
                xs = [math.nan] * n
            stepless = steps is None and self._printed_step is None
            ns = list(map(float, range(self._count + 1, self._count + n + 1)))
            self._count += n
            es = epochs
            if es is None and self._epoch is not None:
                es = [self._epoch] * n
            for name, ys in values:
                if (series := self.series.get(name)) is None:
                    # the run's lines share one template: it recurs (n > 1), a series
                    series = self.series[name] = Series(name, source=self.source)
                    for point in self.recurrence.admit(name):
                        series.add(*point)
                series.extend(xs, ys, es, ns, stepless, rewinds)
        self.lines_parsed += n

    def printed_run(self, steps: list[float], printed_at: Callable[[int], float | None]) -> None:
        """`_printed` over a run of lines whose steps rise, asking `printed_at(k)` (line k's
        printed time) only of the lines that can matter: the first timed one where none was
        kept, then back from the last to the first that moves the latest."""
        timed = self._timed
        start = 0
        if not timed:
            for start in range(1, len(steps) + 1):
                if (at := printed_at(start - 1)) is not None:
                    timed.append((at, int(steps[start - 1])))
                    break
            else:
                return
        first, latest = timed[0][0], timed[-1][1]
        for k in range(len(steps) - 1, start - 1, -1):
            if steps[k] <= latest:
                return
            if (at := printed_at(k)) is not None and at > first:
                timed[1:] = [(at, int(steps[k]))]
                return

    def prepend(self, head: ProgressTracker) -> None:
        """Put the points of the lines before this tracker's first in front (a log opened at
        its end, whose head was read afterwards); what the head knew that this does not (the
        epochs in all, say) is kept too."""
        merged: dict[str, Series] = {}
        shift = head._count  # this tracker's points come after the head's
        for mine in self.series.values():
            mine.ns = array("d", [n + shift for n in mine.ns])
        for name, older in head.series.items():
            mine = self.series.get(name)
            xs, ys = array("d", older.xs), array("d", older.ys)
            es, ns = _epochs_of(older), array("d", older.ns)
            if mine is not None:
                xs.extend(mine.xs)
                ys.extend(mine.ys)
                es.extend(_epochs_of(mine))
                ns.extend(mine.ns)
            if all(math.isnan(e) for e in es):
                es = array("d")
            merged[name] = Series(name, xs, ys, self.source, es, ns)
        for name, mine in self.series.items():
            merged.setdefault(name, mine)
        self.series = merged
        self.lines_parsed += head.lines_parsed
        self._count += shift
        for attr in ("_epochs", "_total", "_per_epoch_total", "_diverged"):
            if getattr(self, attr) is None:
                setattr(self, attr, getattr(head, attr))

    def _arrived(self, step: int, now: float) -> None:
        moved = self._moved
        if moved is None or step != moved[1]:
            if moved is not None and now - moved[0] >= _SAME_MOMENT:
                self._waits.append(now - moved[0])
            self._moved = (now, step)
        arrivals = self._arrivals
        if arrivals and now - arrivals[-1][0] < _SAME_MOMENT:
            arrivals[-1] = (arrivals[-1][0], step)  # a burst is one moment: keep its last step
        else:
            arrivals.append((now, step))
        while len(arrivals) > 2 and now - arrivals[0][0] > RATE_WINDOW:
            arrivals.popleft()

    def _epochs_done(self) -> int:
        """Epochs before the current one: from the 0-based epoch where the format says its
        base, else counted from the first epoch this log showed (a resumed run starts at 0)."""
        if self._epoch_index is not None:
            return self._epoch_index
        epoch = self._epoch
        if epoch is None or not epoch.is_integer():
            return 0
        if self._first_epoch is None:
            self._first_epoch = epoch
        return max(0, int(epoch - self._first_epoch))

    def _printed(self, at: float, step: int) -> None:
        timed = self._timed
        if not timed:
            timed.append((at, step))
        elif at > timed[0][0] and step > timed[-1][1]:
            timed[1:] = [(at, step)]  # the time the step last moved

    def printed_rate(self) -> float | None:
        """Steps per second between the first and the last step whose line printed its time."""
        if len(self._timed) < 2:
            return None
        (t0, s0), (t1, s1) = self._timed
        return (s1 - s0) / (t1 - t0)

    def standing(self) -> Standing:
        """Where training stands now."""
        rate = self._bar_rate or self._timed_rate() or self.printed_rate()
        step, total = self._step, self._total
        eta, scope = None, "training"
        if rate and step is not None and total is not None and total >= step:
            eta = (total - step) / rate
        elif self._per_epoch_total and rate and step is not None:
            within = step % self._per_epoch_total if self._per_epoch_total else step
            eta, scope = (self._per_epoch_total - within) / rate, "epoch"
        elif self._bar_left is not None:
            eta = self._bar_left
        at = self._diverged or (None, None)
        return Standing(step, total, self._epoch, self._epochs, rate, eta, scope,
                        self._diverged is not None, *at)  # fmt: skip

    def stalled(self, now: float | None = None) -> float | None:
        """Seconds the step has not moved, once that is longer than this log's rhythm allows
        (`STALL_TIMES` its longest wait, at least `STALL_FLOOR`); None while it keeps moving,
        and before the log has shown any step (nothing to measure a stall against)."""
        if self._moved is None:
            return None
        still = (time.monotonic() if now is None else now) - self._moved[0]
        limit = max(STALL_FLOOR, STALL_TIMES * max(self._waits)) if self._waits else STALL_UNTIMED
        return still if still > limit else None

    def _timed_rate(self) -> float | None:
        arrivals = self._arrivals
        if len(arrivals) < 2:
            return None
        (t0, s0), (t1, s1) = arrivals[0], arrivals[-1]
        if t1 - t0 < 1.0 or s1 <= s0:
            return None
        return (s1 - s0) / (t1 - t0)


STRAGGLER_GAP = 0.2
"""A rank this much slower than the median rank is a straggler."""


def stragglers(rates: dict[str, float]) -> set[str]:
    """The ranks at least 20 % slower than the median of `rates` (steps/s by rank)."""
    values = sorted(rates.values())
    if len(values) < 2:
        return set()
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return {name for name, rate in rates.items() if rate <= median * (1 - STRAGGLER_GAP)}
