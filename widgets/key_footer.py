"""`KeyFooter`: a Footer whose essential keys come first, so a narrow terminal cuts the others.

Textual's Footer lists the focused widget's keys, then the screen's, then the app's, and cuts
what does not fit at the right: at 80 columns Help and Quit (the app's) were the first to go.
Here Back, Next, Help and Quit lead, in that order, and the rest follow as Textual orders them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.compose import compose
from textual.widget import Widget
from textual.widgets import Footer

ESSENTIAL = ("back", "next", "help", "quit")
"""Actions (the last part of `app.help`, `screen.back` …) shown first, in this order."""


def _rank(widget: Widget) -> int:
    action = getattr(widget, "action", None)
    if action is None or widget.has_class("-command-palette"):
        return len(ESSENTIAL)
    name = action.rpartition(".")[2].partition("(")[0]
    return ESSENTIAL.index(name) if name in ESSENTIAL else len(ESSENTIAL)


class KeyFooter(Footer):
    """The Footer, essential keys first."""

    def compose(self) -> ComposeResult:
        # Built as Textual builds them (key groups with their keys), then reordered; the sort
        # is stable, so the rest keep their order.
        yield from sorted(compose(self, super().compose()), key=_rank)
