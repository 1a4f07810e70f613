"""`StacksPanel`: every rank's Python stack on the job screen (`S`), grouped, the odd ones out
first; Escape closes it.

The groups are `tui.backends.stacks.collect`'s (the same as `dtrain-tui stacks NAME`): each
group's ranks and where they are (`rank 3: time.sleep ← load_batch data.py:41`), then its main
thread's frames, innermost first, each as `function  file:line` (the job's own code bright,
the standard library's and installed packages' muted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.markup import escape
from textual.widgets import Static

from tui.logs.stacks import odd_one_out, ranks_words, span

if TYPE_CHECKING:
    from tui.backends.stacks import Stacks
    from tui.logs.stacks import Group

CLOSE = "[$text-muted]Esc closes[/]"


class StacksPanel(Static):
    """Hidden until `show()`; `close()` hides it again."""

    DEFAULT_CSS = """
    StacksPanel {
        display: none; height: auto; max-height: 50%; overflow-y: auto;
        padding: 0 1; border-top: solid $accent; background: $panel;
    }
    StacksPanel.-shown { display: block; }
    """

    def show(self, text: str) -> None:
        """Show `text` (markup) in the panel."""
        self.update(text)
        self.add_class("-shown")

    def close(self) -> bool:
        """Hide the panel; whether it was shown."""
        shown = self.has_class("-shown")
        self.remove_class("-shown")
        return shown


def stacks_text(found: Stacks, cannot_ask: str | None = None) -> str:
    """The panel's markup for what `collect` found. `cannot_ask`: the backend's name when it
    cannot ask a job's ranks (its stacks are only those the ranks printed on their own)."""
    if not found.groups:
        if cannot_ask is not None:
            return (
                f"[b]Stacks:[/b] {escape(cannot_ask)} cannot ask a job's ranks for their stacks; "
                "a rank prints them on its own after DTRAIN_STACKS minutes in one place, and "
                f"none has yet · {CLOSE}"
            )
        return f"[b]Stacks:[/b] {escape(found.note())} · {CLOSE}"
    lines = [f"[b]Stacks[/b] · {escape(found.note())} · {CLOSE}"]
    culprit = odd_one_out(found.groups)
    if culprit is not None:
        others = len(found.groups[1].ranks)
        lines.append(
            f"[$warning]rank {culprit} is elsewhere while the other {others} ranks share one "
            "stack: likely the rank they wait for[/]"
        )
    for g in found.groups:
        lines += _group_lines(g)
    if found.missing:
        lines.append(f"[$text-muted]no stack from ranks {span(tuple(found.missing))}[/]")
    return "\n".join(lines)


def _group_lines(g: Group) -> list[str]:
    """`rank 3: where` (or `7 ranks (0-2, 4-7): where`), then one line per frame."""
    who = ranks_words(g.ranks) if len(g.ranks) == 1 else f"{ranks_words(g.ranks)} ({span(g.ranks)})"
    lines = [f"[b]{escape(who)}[/b]: {escape(g.text)}"]
    for f in g.dump.frames:
        frame = f"    {escape(f.function)}  {escape(f.where)}"
        lines.append(f"[$text-muted]{frame}[/]" if f.library else frame)
    return lines
