"""`KeyFooter`: a Footer whose essential keys come first, so a narrow terminal cuts the others.

Textual's Footer lists the focused widget's keys, then the screen's, then the app's, and cuts
what does not fit at the right: at 80 columns Help and Quit (the app's) were the first to go.
Here Back, Next, Help and Quit lead, in that order, and the rest follow as Textual orders them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.compose import compose
from textual.screen import Screen
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

    _recompose_due = False
    """A recompose is scheduled: the bindings' next changes are read by it."""

    def bindings_changed(self, screen: Screen) -> None:
        # Textual schedules a recompose per change; a screen starting up changes its bindings
        # several times in a frame (each focus change), and each recompose styled every key
        # again (~0.2 s of CPU as the job screen opened, beside a big log's index).
        if self._recompose_due:
            self._bindings_ready = True
            return
        super().bindings_changed(screen)
        app = screen.app
        self._recompose_due = bool(app.app_focus and self.is_attached and screen is self.screen)

    _composed: tuple | None = None
    """What the keys on show were composed from."""

    async def recompose(self) -> None:
        self._recompose_due = False  # a change from now on is read by the next one
        if not self.is_attached or self._pruning:
            return  # (as Textual's: its screen has gone)
        shown = self._shown()
        if shown != self._composed:  # a focus change often leaves the same keys
            self._composed = shown
            await super().recompose()

    def _shown(self) -> tuple:
        keys = tuple(
            (b.key, b.action, b.description, b.group, enabled, tooltip)
            for _, b, enabled, tooltip in self.screen.active_bindings.values()
            if b.show
        )
        return keys, self.compact, self.show_command_palette, self.combine_groups
