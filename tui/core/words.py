"""Counted nouns: "1 node", "2 nodes", "1 process", "1,024 lines". One helper, so no message says
"1 nodes" because its author assumed a count above one. And names that state a count follow it."""

from __future__ import annotations

import re

_ES = ("s", "x", "z", "sh", "ch")


def plural(n: int, word: str, many: str | None = None) -> str:
    """`word` as `n` of it is said: "node" for 1, "nodes" for 0 or 2; `many` where adding s or
    es is wrong ("ps" stays "ps")."""
    if n == 1:
        return word
    if many is not None:
        return many
    return word + ("es" if word.endswith(_ES) else "s")


def counted(n: int, word: str, many: str | None = None) -> str:
    """`n` and its noun, thousands grouped: "1 node", "2 processes", "12,400 lines"."""
    return f"{n:,} {plural(n, word, many)}"


def follow_shape(name: str, old: tuple[int, int], new: tuple[int, int]) -> str:
    """`name` with the shape it states (`pytorch-ddp-2x8`: nodes x GPUs per node) following new
    counts; a name that does not state the old shape is the user's and stays as it is."""
    said = re.compile(rf"(?<![0-9]){old[0]}x{old[1]}(?![0-9])")
    return said.sub(f"{new[0]}x{new[1]}", name, count=1) if old != new else name


def clock(seconds: float) -> str:
    """A duration as a clock reads: `1:02:03`, or `2:03` under an hour."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
