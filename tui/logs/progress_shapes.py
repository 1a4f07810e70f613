"""Lines of one shape are read the same way: a log prints the same line, numbers aside, once a
step for a million steps, and reading its structure each time costs tens of microseconds.

A line's shape is its text with every digit made `0`: two lines of one shape hold their numbers
at the same places. The first line of a shape is read in full (tui/logs/progress_line.py) and a
plan is taken from it: which character span holds each metric, the step, the epoch. The next
lines of that shape are read in full too and must agree with the plan; after two that agree, a
line of that shape is read from its spans alone. A shape whose plan disagrees once (a value
that only matched a span by chance) is always read in full. Table rows are always read in full
(a row's loss may be the sum of its parts).

The trusted plans are kept by shape apart too (`ShapeCache.trusted`), for a reader that looks
lines up by the shape of their bytes (tui/logs/progress_bulk.py).
"""

from __future__ import annotations

import re
from dataclasses import replace

from tui.logs.progress_line import Progress, StreamState, read_line
from tui.logs.progress_time import STAMP, clock, stamp

SHAPE = bytes.maketrans(b"123456789", b"000000000")
"""Digits to `0`, on the line's UTF-8 bytes: a bytes table is some twenty times faster than
`str.translate` on a line with a bar's glyphs."""
_CHECKS = 1
"""Lines of a shape read in full, and agreeing with its plan, before the plan is trusted."""
MAX_SHAPES = 1 << 12
"""Shapes a stream remembers (some 800 bytes each) before all are forgotten: the job screen
keeps a reader per rank, so a few MB each. A log whose lines print their words in ever new
orders has thousands of shapes, each read in full until remembered: `dtrain-tui metrics`,
reading one stream, lets its cache hold `MANY_SHAPES`."""
MANY_SHAPES = 1 << 15
_FULL = object()  # a shape that is always read in full
KEEP = object()
"""A plan's `column` where the full reading left the stream's last `key: value` column as it
was (the line never reached a reading of its fields)."""
_KEY_DIGITS = re.compile(r"(?<=[A-Za-z_])\d+|(?<=@)\d+(?:\.\d+)?")


class _Plan:
    __slots__ = (
        "after",
        "checks",
        "column",
        "epoch",
        "epochs",
        "fixed",
        "fixed_bytes",
        "index",
        "inverted",
        "is_ascii",
        "left",
        "rate",
        "sets_total",
        "stamped",
        "step",
        "template",
        "total",
        "values",
    )  # fmt: skip
    constant = False

    def __init__(self, line: str, p: Progress, state: StreamState) -> None:
        found, shift = state.found, state.shift
        if found is None or shift is None:
            raise LookupError(line)  # escape codes were cut: the places moved

        def place(span: tuple[int, int] | None, value: object) -> tuple[int, int] | None:
            """Where the full reading took `value` from (in the line as it came)."""
            if value is None:
                return None
            if span is None:
                raise LookupError(value)
            return span[0] + shift, span[1] + shift

        spans = found.spans
        self.step = place(spans.get("step"), p.step)
        self.total = place(spans.get("total"), p.total)
        self.epochs = place(spans.get("epochs"), p.epochs)
        if p.epoch is not None and found.epoch is None:
            self.epoch: tuple[int, int] | str | None = "carried"
        else:
            self.epoch = place(spans.get("epoch"), p.epoch)
        where = found.value_spans
        self.values = [(name, place(where.get(name), v)) for name, v in p.values.items()]
        # Digits inside a key (`s0.loss_cls`, `lr_0`, `mAP@0.5`) are no numbers: the shape masks
        # them too, so a line of this shape is read from the plan only where they are the same.
        self.fixed = _fixed(line)
        self.fixed_bytes = _in_bytes(line, self.fixed)
        self.is_ascii = line.isascii()
        self.stamped = STAMP.match(line) is not None  # so are all lines of the shape
        # How the 0-based epoch follows from the printed one, as progress_line decides it.
        self.index = "epoch" if p.kind == "epoch" else "ranged" if p.epochs is not None else None
        if p.kind == "tqdm":
            self.index = "bar" if p.epoch_index is not None else None
        if self.index is None and p.epoch_index is not None:
            raise LookupError(p.epoch_index)
        self.rate = place(spans.get("rate"), p.rate)
        self.inverted = found.inverted
        self.left = place(spans.get("left"), p.left)
        self.template = replace(p, values={}, step=None, total=None, epoch=None, epochs=None)
        self.after = False
        self.column = column_after(state)
        self.checks = 0
        self.sets_total = p.total is not None and state.total == p.total
        """Training's line with its count's total: the stream's `total` is its (as read in full)."""

    def fits(self, line: str) -> bool:
        return all(line.startswith(digits, at) for at, digits in self.fixed)

    def read(self, line: str, state: StreamState) -> Progress:
        values = {name: float(line[a:b]) for name, (a, b) in self.values}
        epoch: float | None
        if self.epoch == "carried":
            epoch = state.epoch
        elif self.epoch is not None:
            a, b = self.epoch
            epoch = state.epoch = float(line[a:b])
        else:
            epoch = None
        step = _count(line, self.step) if self.step else None
        total = _count(line, self.total) if self.total else None
        if self.sets_total and total is not None:
            state.total = total
        epochs = _count(line, self.epochs) if self.epochs else None
        index = None
        if self.index == "epoch" or (
            self.index == "ranged" and epoch is not None and epoch >= 1 and epoch.is_integer()
        ):
            index = int(epoch) - 1
        elif self.index == "bar" and epoch is not None:
            index = int(epoch)
        rate = left = None
        if self.rate is not None:
            rate = float(line[self.rate[0] : self.rate[1]])
            rate = (1 / rate if rate else None) if self.inverted else rate
        if self.left is not None:
            left = clock(line[self.left[0] : self.left[1]])
        state.evaluating = self.after
        if self.column is not KEEP:
            state.column = self.column
        t = self.template
        at = stamp(line) if step is not None else None
        return Progress(values, step, total, epoch, epochs, index, t.per_epoch, rate, left, at,
                        t.kind, t.diverged)  # fmt: skip


def _count(line: str, span: tuple[int, int] | None) -> int | None:
    """A counter at `span`: a whole number, not negative (else none, as a full reading says)."""
    if span is None:
        return None
    value = float(line[span[0] : span[1]])
    return int(value) if value >= 0 and value.is_integer() else None


def _fixed(line: str) -> tuple[tuple[int, str], ...]:
    return tuple((m.start(), m.group()) for m in _KEY_DIGITS.finditer(line))


def _in_bytes(line: str, fixed: tuple[tuple[int, str], ...]) -> tuple[tuple[int, bytes], ...]:
    """`fixed` in the line's UTF-8 bytes."""
    return tuple((len(line[:at].encode("utf-8", "surrogatepass")), digits.encode())
                 for at, digits in fixed)  # fmt: skip


def fits_bytes(plan: _Plan | _Constant, raw: bytes) -> bool:
    """`raw` (a line's bytes, of the plan's shape) has the plan's digits inside its keys."""
    return all(raw.startswith(digits, at) for at, digits in plan.fixed_bytes)


class _Constant:
    """A shape whose lines all read the same: nothing (most hinted noise), or an ignored bar."""

    __slots__ = ("after", "checks", "column", "fixed", "fixed_bytes", "found")
    constant = True

    def __init__(self, line: str, found: Progress | None, state: StreamState) -> None:
        self.found, self.after, self.checks = found, state.evaluating, 0
        self.column = column_after(state)
        self.fixed = _fixed(line)
        self.fixed_bytes = _in_bytes(line, self.fixed)

    def fits(self, line: str) -> bool:
        return all(line.startswith(digits, at) for at, digits in self.fixed)

    def read(self, line: str, state: StreamState) -> Progress | None:
        state.evaluating = self.after
        if self.column is not KEEP:
            state.column = self.column
        return self.found


def column_after(state: StreamState) -> object:
    """Where the line just read in full left the `key: value` column the next line is aligned
    with (tui/logs/progress_line.py's `_aligned`): a plan sets it as the full reading did."""
    return state.column if state.found is not None else KEEP


class ShapeCache:
    """Plans by shape for one stream (see the module's docstring)."""

    def __init__(self, limit: int = MAX_SHAPES) -> None:
        self.limit = limit
        """Shapes remembered before all are forgotten."""
        self._plans: dict[tuple[bytes, bool, bool], object] = {}
        self.trusted: dict[tuple[bool, bool], dict[bytes, _Plan | _Constant]] = {
            (evaluating, no_epoch): {} for evaluating in (False, True) for no_epoch in (False, True)
        }
        """The trusted plans by the stream's state (evaluating, no epoch yet), then by shape."""

    def forget(self) -> None:
        """Drop every plan: past the limit, or when the stream's table header changes (a plan
        learned under one header, or none, may not read a line under another as in full)."""
        self._plans.clear()
        for plans in self.trusted.values():
            plans.clear()  # in place: tui/logs/progress_bulk.py holds these dicts

    def read(self, line: str, state: StreamState) -> Progress | None:
        key = (
            line.encode("utf-8", "surrogatepass").translate(SHAPE),
            state.evaluating,
            state.epoch is None,
        )
        plan = self._plans.get(key)
        trusted = plan is not None and plan is not _FULL and plan.checks >= _CHECKS
        if trusted and (not plan.fixed or plan.fits(line)):
            return plan.read(line, state)
        carried, header = state.epoch, state.header
        found = read_line(line, state)
        if plan is _FULL:
            return found
        if plan is None:
            # a line that names a table's columns is read in full each time: it sets the header
            changed = state.header is not header
            if changed and state.header != header:
                self.forget()
            counted = key[1] and found is not None and found.total is not None
            # an evaluation's count is read against what training's runs to: read in full
            full = changed or counted
            self._plans[key] = _FULL if full else self._plan(line, found, carried, state)
            if len(self._plans) > self.limit:
                self.forget()
            return found
        mirror = StreamState()
        mirror.epoch, mirror.evaluating = carried, key[1]
        try:
            agrees = (
                plan.read(line, mirror) == found
                and ((mirror.evaluating, mirror.epoch) == (state.evaluating, state.epoch))
                and plan.column == column_after(state)
            )
        except (ValueError, TypeError):
            agrees = False
        if agrees:
            plan.checks += 1
            if plan.checks == _CHECKS:
                self.trusted[key[1], key[2]][key[0]] = plan
        else:
            self._plans[key] = _FULL
            self.trusted[key[1], key[2]].pop(key[0], None)
        return found

    @staticmethod
    def _plan(line: str, found: Progress | None, carried: float | None, state: StreamState):
        if found is None or found.kind == "ignored":
            if state.epoch != carried:
                return _FULL  # the line moved the epoch yet reported nothing: rare, read it
            return _Constant(line, found, state)
        if found.kind == "table":
            return _FULL  # a row's loss may be the sum of its parts: no one place holds it
        try:
            plan = _Plan(line, found, state)
        except (LookupError, ValueError, TypeError):
            return _FULL
        plan.after = state.evaluating
        return plan
