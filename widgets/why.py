"""The "why" panel beside every step: what the choice means, in the user's own numbers."""

from __future__ import annotations

import re

from rich.markup import escape
from textual.widgets import Static

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<!\*)\*(?!\*)(.+?)\*")
_CODE = re.compile(r"`([^`]+)`")


def to_markup(text: str) -> str:
    """`**bold**`, `*italic*` and `` `code` `` as Rich markup (everything else literal)."""
    out = escape(text)
    out = _CODE.sub(r"[b $accent]\1[/]", out)
    out = _BOLD.sub(r"[b]\1[/b]", out)
    return _ITALIC.sub(r"[i]\1[/i]", out)


class WhyPanel(Static):
    """Plain-words explanation of the current choice; steps update it as answers change."""

    DEFAULT_CSS = """
    WhyPanel {
        width: 1fr;
        min-width: 30;
        height: 1fr;
        border: round $primary 40%;
        border-title-color: $primary;
        padding: 0 1;
        background: $surface;
        overflow-y: auto;
    }
    """

    def on_mount(self) -> None:
        self.border_title = "Why"

    def update(self, content: object = "", **kwargs) -> None:  # type: ignore[override]
        super().update(to_markup(content) if isinstance(content, str) else content, **kwargs)
