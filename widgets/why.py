"""The "why" panel beside every step: what the choice means, in the user's own numbers."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.widgets import Static

from tui.core.marks import spans


def explained(text: str, code: Style | str = "bold") -> Text:
    """Explanation text with its marks as styles (never shown as `**`, `*` or backticks).

    Every screen that shows explanation text renders it here, so the marks mean the same
    everywhere; the text wraps wherever it is put.
    """
    styles: dict[str | None, Style | str] = {"bold": "bold", "italic": "italic", "code": code}
    out = Text()
    for words, mark in spans(text):
        out.append(words, styles.get(mark, ""))
    return out


def code_style(theme) -> Style:
    """How `code` looks in the current theme: bold in the accent colour."""
    color = theme.accent or theme.primary
    return Style(bold=True, color=Color.parse(color).rich_color if color else None)


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
        if isinstance(content, str):
            content = explained(content, code_style(self.app.current_theme))
        super().update(content, **kwargs)
