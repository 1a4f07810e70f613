"""A log file's progress read in bulk (`dtrain-tui metrics` on a log of gigabytes): the same
points and standing as `ProgressTracker.feed` line by line, in a fraction of the time.

The file is read in blocks of bytes and cut into lines without decoding them. Each line's shape
(tui/logs/progress_shapes.py: its bytes with every digit made `0`) is looked up among the
stream's trusted plans: a line whose plan reads nothing (noise that holds a hint word) is
passed over at once, as is a line of a shape seen to hold no number or no hint word (noise the
reader skips unread); consecutive lines of one plan (a trainer's step line, printed a million
times) are read together, a column of numbers per span, and their points added to the series
in one go. Any other line (a new shape, one read in full, a line with `\\r` or bad bytes) is
decoded and given to `feed`, in order, so the stream's memory is what it would have been.

The tracker takes what a run of lines says at once (`ProgressTracker.take_run`, `printed_run`)
and leaves the state feeding them line by line would (tests/logs/test_progress_bulk.py holds
the two to the same result).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import islice
from operator import eq, itemgetter, lt
from typing import BinaryIO

from tui.logs.progress import ProgressTracker
from tui.logs.progress_gate import DIGIT, MAX_LINE, hinted, phase
from tui.logs.progress_shapes import KEEP, MANY_SHAPES, SHAPE, fits_bytes
from tui.logs.progress_time import stamp

GROUP = 4096
"""Lines a group holds (the CLI writes out the points each group made)."""
BLOCK = 1 << 20
"""Bytes read at a time."""
_FLOATS = 1 << 16  # numbers' texts remembered at most
_SLICE = 1 << 22  # bytes of lines whose shapes are made at once (a few copies of it are held)
_PASSED = 1 << 14  # shapes of noise remembered at most
_MIN_RUN = 4  # shorter runs are read line by line: a column costs more to set up
_RAISES = (ValueError, OverflowError, RecursionError, MemoryError)  # LineReader's: no progress


def line_groups(handle: BinaryIO, size: int = GROUP, block: int = BLOCK) -> Iterator[list[bytes]]:
    """A file's lines as bytes (without their `\\n`), in lists of `size`, in bounded memory:
    a line longer than MAX_LINE bytes is never held, only read past (it is no progress)."""
    carry, skipping, lines = b"", False, []
    while data := handle.read(block):
        if skipping:
            if (nl := data.find(b"\n")) < 0:
                continue
            data, skipping = data[nl + 1 :], False
        if (end := data.rfind(b"\n")) < 0:
            carry += data
            if len(carry) > MAX_LINE:
                carry, skipping = b"", True
            continue
        whole = (carry + data[:end]).split(b"\n")
        carry = data[end + 1 :]
        if len(carry) > MAX_LINE:
            carry, skipping = b"", True
        if max(map(len, whole)) > MAX_LINE:
            whole = [line for line in whole if len(line) <= MAX_LINE]
        lines += whole
        if len(lines) >= size:
            cut = len(lines) - len(lines) % size
            for at in range(0, cut, size):
                yield lines[at : at + size]
            lines = lines[cut:]
    if carry and not skipping:
        lines.append(carry)
    if lines:
        yield lines


def _text(raw: bytes) -> str:
    """The line as the tracker reads it: decoded (bad bytes replaced), a bar's `\\r` redraws
    collapsed to their latest state."""
    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    if "\r" in text:
        text = text.rstrip("\r").rsplit("\r", 1)[-1]
    return text


class BulkReader:
    """Feeds a tracker lines as bytes (see the module's docstring); `feed(lines)` does what
    `tracker.feed` does with the lines decoded."""

    def __init__(self, tracker: ProgressTracker) -> None:
        self.tracker = tracker
        reader = tracker.reader
        reader.shapes.limit = MANY_SHAPES  # one stream in this process: room for many shapes
        self.state = reader.state
        self.trusted = reader.shapes.trusted
        self.floats: dict[bytes, float] = {}
        """Numbers' texts → their values, remembered over runs (a loss to four places repeats)."""
        self.passed: set[bytes] = set()
        """Shapes of lines that are no progress nor a table's header while the stream has
        none: without a number, or without a hint word (`LineReader.read` reads neither)."""

    def feed(self, lines: list[bytes], now: float | None = None) -> None:
        """Take complete lines (bytes, without their `\\n`)."""
        size = sum(map(len, lines))
        step = len(lines) if size <= _SLICE else max(1, len(lines) * _SLICE // size)
        for at in range(0, len(lines), step):
            self._feed(lines[at : at + step], now)

    def _feed(self, lines: list[bytes], now: float | None) -> None:
        tracker, state, trusted, passed = self.tracker, self.state, self.trusted, self.passed
        shapes = b"\n".join(lines).translate(SHAPE).split(b"\n")
        same = list(map(eq, shapes, islice(shapes, 1, None)))  # the next line's shape is its
        same.append(False)
        table = trusted[state.evaluating, state.epoch is None]
        places = iter(range(len(lines)))
        for at in places:
            shape = shapes[at]
            plan = table.get(shape)
            if plan is not None and plan.fixed_bytes and not fits_bytes(plan, lines[at]):
                plan = None
            if plan is None:
                if state.header is None and shape in passed:
                    if same[at]:  # noise, and the same noise after it
                        _skip(places, same.index(False, at) - at)
                    continue
                text = _text(lines[at])
                numberless = DIGIT.search(text) is None
                noise = state.header is None and (numberless or not hinted(text))
                said = phase(text) if noise else None  # `Validating...`: what lines follow
                if not noise or numberless or said is not None:  # or a table's header
                    tracker.feed((text,), now)
                    table = trusted[state.evaluating, state.epoch is None]
                if noise and state.header is None and said is None:  # no progress, nor any
                    if len(passed) >= _PASSED:
                        passed.clear()
                    passed.add(shape)
            elif plan.constant:  # nothing to take, or an ignored bar
                plan.read("", state)  # its evaluation phase and column, as read in full
                table = trusted[plan.after, state.epoch is None]
                if same[at] and not plan.fixed_bytes and table.get(shape) is plan:
                    _skip(places, same.index(False, at) - at)  # the lines of its shape after it
            else:
                end = at + 1
                # where the next line is looked up once this one is read: if there too, the
                # lines of this shape that follow are all read by this plan
                sets_epoch = isinstance(plan.epoch, tuple)
                if (
                    same[at]
                    and trusted[plan.after, not sets_epoch and state.epoch is None].get(shape)
                    is plan
                ):
                    end = same.index(False, at) + 1
                    if plan.fixed_bytes:
                        end = next(
                            (k for k in range(at, end) if not fits_bytes(plan, lines[k])), end
                        )
                    _skip(places, end - at - 1)
                self._run(plan, lines[at:end], now)
                table = trusted[state.evaluating, state.epoch is None]

    def _run(self, plan, run: list[bytes], now: float | None) -> None:
        """Lines of one trusted plan, in a row: a column at a time where they can be, else a
        line at a time (the lines after one that raised are read by `feed`: the state then is
        not what the plan promised)."""
        if len(run) >= _MIN_RUN and _columnar(plan) and self._columns(plan, run, now):
            return
        tracker, state = self.tracker, self.state
        for at, raw in enumerate(run):
            try:
                progress = plan.read(text := raw.decode(), state)
            except _RAISES:
                tracker.feed([raw.decode() for raw in run[at + 1 :]], now)
                return
            tracker.feed_progress(progress, text, now)

    def _columns(self, plan, run: list[bytes], now: float | None) -> bool:
        """The run read a column at a time: False (nothing done) where a line would read
        otherwise than the rest (a counter that is no whole number, steps that go back)."""
        tracker, state, n = self.tracker, self.state, len(run)
        try:
            values = [(name, self._column(run, span)) for name, span in plan.values]
            epochs = self._column(run, plan.epoch) if isinstance(plan.epoch, tuple) else None
            steps = _steps(run, plan.step) if plan.step else None
            total = _last_count(run, plan.total) if steps and plan.total else None
            in_all = _last_count(run, plan.epochs) if plan.epochs else None
        except ValueError:
            return False
        carried = state.epoch if plan.epoch == "carried" else None
        if epochs is not None and not all(map(math.isfinite, epochs)):
            return False
        if plan.index is not None and epochs is None and not _finite(carried):
            return False
        if steps is not None:
            if not (min(steps) >= 0 and all(map(float.is_integer, steps))):
                return False
            if plan.stamped and not all(map(lt, steps, islice(steps, 1, None))):
                return False
        index = _last_index(plan.index, epochs, carried)
        diverged = plan.template.diverged
        tracker.take_run(n, values, steps, epochs, carried, in_all, total, index, now, diverged)
        if steps is not None and plan.stamped:
            tracker.printed_run(steps, lambda k: stamp(run[k].decode()))
        state.evaluating = plan.after
        if plan.sets_total and (last := _last_count(run, plan.total)) is not None:
            state.total = last
        if plan.column is not KEEP:
            state.column = plan.column
        if epochs is not None:
            state.epoch = epochs[-1]
        return True

    def _column(self, run: list[bytes], span: tuple[int, int]) -> list[float]:
        """The numbers at `span` in each line, as `float` reads them: each text once (a
        constant lr, a loss to four places repeat; `float` costs three times a look-up)."""
        texts = list(map(itemgetter(slice(*span)), run))
        if texts.count(first := texts[0]) == len(texts):
            return [float(first)] * len(texts)
        floats = self.floats
        if new := (unique := set(texts)).difference(floats):
            if len(floats) + len(new) > _FLOATS:
                floats.clear()
                new = unique
            floats.update(zip(new, map(float, new), strict=True))
        return list(map(floats.__getitem__, texts))


def _steps(run: list[bytes], span: tuple[int, int]) -> list[float]:
    """The counters at `span` (whole numbers are read faster as such; equal as floats)."""
    texts = list(map(itemgetter(slice(*span)), run))
    try:
        return list(map(float, map(int, texts)))
    except ValueError:
        return list(map(float, texts))


def _skip(places: Iterator[int], lines: int) -> None:
    """Go past that many lines (read together with the one before them)."""
    next(islice(places, lines, lines), None)


def _columnar(plan) -> bool:
    """The plan's lines add points and move the step alone: no bar (its rate, a smaller bar's
    step), no count within an epoch; and its spans count characters as bytes."""
    bar = plan.template.kind == "tqdm" or plan.rate is not None or plan.left is not None
    return plan.is_ascii and not bar and not plan.template.per_epoch


def _finite(epoch: float | None) -> bool:
    return epoch is not None and math.isfinite(epoch)


def _last_count(run: list[bytes], span: tuple[int, int]) -> int | None:
    """The last counter the run printed at `span` that is a whole number, not negative."""
    for raw in reversed(run):
        value = float(raw[span[0] : span[1]])
        if value >= 0 and value.is_integer():
            return int(value)
    return None


def _last_index(kind: str | None, epochs: list[float] | None, carried: float | None) -> int | None:
    """The 0-based epoch the run's last line that says one gives (as `_Plan.read` derives it)."""
    if kind is None:
        return None
    for epoch in reversed(epochs) if epochs is not None else (carried,):
        if kind == "epoch" or (kind == "ranged" and epoch >= 1 and epoch.is_integer()):
            return int(epoch) - 1
        if kind == "bar":
            return int(epoch)
    return None
