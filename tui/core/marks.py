"""The few marks explanation text may carry — `**bold**`, `*emphasis*`, `` `code` `` — as spans.

Explanations are written once (in the core and in the steps' Why text) and shown by several
renderers: the Why panel, Review's tabs, `dtrain-tui preview` on a terminal or a pipe. Each one
styles these spans its own way; none shows the marks themselves.
"""

from __future__ import annotations

import re
from typing import Literal

Mark = Literal["bold", "italic", "code"] | None

_MARK = re.compile(r"\*\*(.+?)\*\*|`([^`]+)`|(?<![*\w])\*(?![*\s])(.+?)(?<![\s*])\*(?![*\w])")


def spans(text: str) -> list[tuple[str, Mark]]:
    """`text` cut into (words, mark) pieces; joined, the words are `text` without its marks."""
    out: list[tuple[str, Mark]] = []
    pos = 0
    for m in _MARK.finditer(text):
        if m.start() > pos:
            out.append((text[pos : m.start()], None))
        bold, code, italic = m.groups()
        if bold is not None:
            out.append((bold, "bold"))
        elif code is not None:
            out.append((code, "code"))
        else:
            out.append((italic, "italic"))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], None))
    return out


def plain(text: str) -> str:
    """`text` without its marks (for piped output and plain-text exports)."""
    return "".join(words for words, _ in spans(text))
