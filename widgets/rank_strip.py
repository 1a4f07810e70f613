"""`RankStrip`: every rank of a job as one cell, coloured by whether its log still grows.

A 1,024-rank job fits in a dozen rows: one cell per rank, wrapped to the width. Under the cells,
the selected rank (its log size, seconds since its log grew, its last progress value when known)
and the job's verdict (the straggler / hang suspects, or "possible collective hang"). Arrow keys
move the selection; Enter posts `RankChosen` so the screen can open that rank's log.

What it shows is pushed in (`show()` with `tui.logs.rank_watch` states); per-rank progress
(a step, a rate) can be set on its own with `set_progress()`, or for every rank at once with
the ranks ≥ 20 % slower than the median (`set_speeds()`), shown as ▼ stragglers; the size of
the log on display comes from whoever reads it (`on_display()`), so the strip and the status
line never show two sizes for one log. It reads no logs itself. Once the job has ended no
"s ago" is shown (it would stand still while time goes on): a rank says how long before the end
it last wrote.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from rich.markup import escape
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from tui.core.words import counted

_CELL = {
    "waiting": "[$text-muted]·[/]",
    "running": "[$success]■[/]",
    "quiet": "[$warning]■[/]",
    "suspect": "[$error]▲[/]",
    "ended": "[$text-muted]■[/]",
}
_SLOW = "[$warning]▼[/]"
"""A running rank ≥ 20 % slower than the median (steps/s): a straggler."""


class RankStrip(Static, can_focus=True):
    """One cell per rank; the selected rank's details and the job's verdict below."""

    DEFAULT_CSS = """
    RankStrip { height: auto; max-height: 16; padding: 0 1; background: $panel; }
    RankStrip:focus { background-tint: $foreground 5%; }
    """
    BINDINGS: ClassVar = [
        Binding("left", "move(-1)", "Previous rank", show=False),
        Binding("right", "move(1)", "Next rank", show=False),
        Binding("up", "move_row(-1)", show=False),
        Binding("down", "move_row(1)", show=False),
        Binding("enter", "choose", "Open rank's log"),
    ]

    cursor: reactive[int] = reactive(0, init=False)
    """Index of the selected rank among those shown."""

    class RankChosen(Message):
        """Enter on a rank: the screen opens its log."""

        def __init__(self, rank: int) -> None:
            super().__init__()
            self.rank = rank

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.states: list[Any] = []
        """The ranks' states as last shown (`RankState`s, in rank order)."""
        self.verdict: Any = None
        """The job's verdict as last shown (`Verdict`), or None."""
        self.progress: dict[int, str] = {}
        self.slow: frozenset[int] = frozenset()
        """Ranks ≥ 20 % slower than the median rank (steps/s), as last set."""
        self.selected: int | None = None
        """The rank `select()` asked for (the screen's open log); kept when states change."""
        self.displayed: tuple[int, int] | None = None
        """The rank whose log is on display and the bytes read of it (`on_display()`)."""
        self.note = ""
        """A quiet word at the end of the summary line (`set_note()`): no row of its own."""

    def show(self, states: Sequence[Any], verdict: Any) -> None:
        """Redraw with new states (sorted by rank) and the job's verdict."""
        self.states = sorted(states, key=lambda s: s.rank)
        self.verdict = verdict
        at = next((i for i, s in enumerate(self.states) if s.rank == self.selected), None)
        self.cursor = at if at is not None else min(self.cursor, max(0, len(self.states) - 1))
        self._draw()

    def set_note(self, text: str) -> None:
        """Say `text` quietly at the end of the summary line ("" removes it)."""
        if text != self.note:
            self.note = text
            self._draw()

    def on_display(self, rank: int | None, size: int) -> None:
        """The rank whose log is on display (None: another log) and the bytes read of it, as
        the status line shows them: that rank's size is this one, not the last poll's."""
        displayed = None if rank is None else (rank, size)
        if displayed != self.displayed:
            self.displayed = displayed
            self._draw()

    def set_progress(self, rank: int, value: str | float | None) -> None:
        """A rank's last progress value (a step, steps/s) to show beside its size; None clears."""
        if value is None:
            self.progress.pop(rank, None)
        else:
            self.progress[rank] = value if isinstance(value, str) else f"{value:.3g}"
        self._draw()

    def set_speeds(self, values: Mapping[int, str | None], slow: Iterable[int]) -> None:
        """Every rank's progress (`step 120 · 4 steps/s`) and the slow ones, in one redraw."""
        for rank, value in values.items():
            if value is None:
                self.progress.pop(rank, None)
            else:
                self.progress[rank] = value
        self.slow = frozenset(slow)
        self._draw()

    @property
    def stragglers(self) -> tuple[int, ...]:
        """The slow ranks still running (a hang suspect is shown as that instead)."""
        return tuple(s.rank for s in self.states if self._is_slow(s))

    def _is_slow(self, state: Any) -> bool:
        return state.rank in self.slow and state.state in ("running", "quiet")

    @property
    def suspects(self) -> tuple[int, ...]:
        return self.verdict.suspects if self.verdict is not None else ()

    def watch_cursor(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def action_move(self, step: int) -> None:
        if self.states:
            self.select(self.states[(self.cursor + step) % len(self.states)].rank)

    def action_move_row(self, step: int) -> None:
        if self.states:
            at = max(0, min(len(self.states) - 1, self.cursor + step * self._per_row()))
            self.select(self.states[at].rank)

    def action_choose(self) -> None:
        if self.states:
            self.post_message(self.RankChosen(self.states[self.cursor].rank))

    def select(self, rank: int) -> None:
        """Put the selection on `rank` (the screen's open log), now or once it is shown."""
        self.selected = rank
        for i, s in enumerate(self.states):
            if s.rank == rank:
                self.cursor = i
                return

    def _per_row(self) -> int:
        width = self.content_size.width if self.is_mounted else 0
        return max(8, width or 80)

    def _draw(self) -> None:
        if not self.states:
            self.update("[$text-muted]ranks: waiting for the job's logs…[/]")
            return
        per_row = self._per_row()
        cells = []
        for i, s in enumerate(self.states):
            cell = _SLOW if self._is_slow(s) else _CELL.get(s.state, "?")
            cells.append(f"[reverse]{cell}[/reverse]" if i == self.cursor else cell)
        rows = ["".join(cells[i : i + per_row]) for i in range(0, len(cells), per_row)]
        self.update("\n".join([*rows, self._detail(), self._summary()]).rstrip())

    def _detail(self) -> str:
        s = self.states[self.cursor]
        parts = [f"[b]rank {s.rank}[/b]", s.state]
        size = self.displayed[1] if self.displayed and self.displayed[0] == s.rank else s.size
        if size is not None:
            parts.append(size_words(size))
        parts += _when(s)
        value = self.progress.get(s.rank) or s.progress
        if value:
            parts.append(escape(str(value)))
        if self._is_slow(s):
            parts.append("[$warning]straggler: 20 %+ slower than the median[/]")
        return " · ".join(parts) + "  [$text-muted](enter: open its log)[/]"

    def _summary(self) -> str:
        counts: dict[str, int] = {}
        for s in self.states:
            counts[s.state] = counts.get(s.state, 0) + 1
        text = f"{counted(len(self.states), 'rank')}: " + ", ".join(
            f"{n} {k}" for k, n in counts.items()
        )
        v = self.verdict
        if v is not None and v.interval is not None:
            # How often a log grew between checks (not a line, not a step: a growth may hold
            # many), the yardstick for "silent too long".
            text += f" · each log grows every {v.interval:.1f} s"
        if v is not None and v.summary():
            text += f" · [$error]{escape(v.summary())}[/]"
        if self.note:
            text += f" · [$text-muted]{escape(self.note)}[/]"
        if slow := self.stragglers:
            more = f" (+{len(slow) - 8})" if len(slow) > 8 else ""
            shown = ", ".join(str(r) for r in slow[:8]) + more
            text += f" · [$warning]slow (20 %+ under the median speed): rank {shown}[/]"
        return text


def _when(state: Any) -> list[str]:
    """When the rank's log last grew: `grew 3 s ago` while the job runs; after the end, how
    long before it (nothing when it wrote to the end, or the watch never saw it running)."""
    if state.state == "ended":
        if (state.silent_for or 0.0) >= 1:
            return [f"last wrote {state.silent_for:.0f} s before the end"]
        return ["printed nothing"] if state.size == 0 else []
    if state.silent_for is not None:
        return [f"grew {state.silent_for:.0f} s ago"]
    return ["nothing printed yet"] if state.size == 0 else []


def size_words(n: float) -> str:
    """A log's size as the job screen writes it everywhere: `843 B`, `12.4 KB`, `1.2 GB`."""
    for unit in ("B", "KB", "MB"):
        if n < 1024:
            return f"{n:,} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"
