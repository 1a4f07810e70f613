"""`theme_style`: a Rich style in a theme's colour, for widgets that paint their own text."""

from __future__ import annotations

from rich.style import Style
from textual.color import Color


def theme_style(color: str | None, **kwargs) -> Style:
    """A Rich style for a theme colour; themes may name ANSI colours Rich cannot parse."""
    return Style(color=Color.parse(color).rich_color if color else None, **kwargs)
