"""Painting one log line as a row: what the view draws of a line, whatever bytes it holds.

ANSI colours are kept, other control characters (C0, DEL, C1 — U+009B is a CSI) are shown as
U+FFFD so a log cannot move the cursor or retitle the terminal, tabs expand to 8, a line longer
than `MAX_SHOWN` characters is cut with a count of the rest, and the search's matches are
highlighted.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

MAX_SHOWN = 10_000
"""Characters of one line drawn; the rest is counted (search, filter and save see it all)."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0, DEL and C1 (U+009B is a CSI)


def paint(
    raw: str, style: Style, highlight: tuple[re.Pattern[str], Style] | None, console: Console
) -> Strip:
    """Line `raw` in `style`, whole (not cropped), with `highlight`'s pattern in its style."""
    if len(raw) > MAX_SHOWN:
        raw = f"{raw[:MAX_SHOWN]} … ({len(raw) - MAX_SHOWN:,} more characters)"
    if "\t" in raw:
        raw = raw.expandtabs(8)
    if "\x1b" in raw:
        text = Text.from_ansi(raw, style=style, no_wrap=True, end="")
        if not text.plain.isprintable():
            text.plain = _CONTROL.sub("\ufffd", text.plain)
    else:
        if not raw.isprintable():
            raw = _CONTROL.sub("\ufffd", raw)
        if highlight is None or not highlight[0].search(raw):
            return Strip([Segment(raw, style)]) if raw else Strip([])
        text = Text(raw, style=style, no_wrap=True, end="")
    if highlight is not None:
        pattern, match_style = highlight
        for m in pattern.finditer(text.plain):
            text.stylize(match_style, m.start(), m.end())
    return Strip(list(text.render(console)))
