"""The times a progress line prints: the timestamp it starts with (a rate where the log prints
no bar: steps between two stamped lines over the seconds between them) and tqdm's `[H:]MM:SS`
clocks. What `progress_fields`, `progress_shapes` and the bulk reader read times with."""

from __future__ import annotations

import datetime
import re

STAMP = re.compile(
    r"^\W{0,3}(?:(?P<y>\d{4})[-/])?(?P<mo>\d\d)[-/](?P<d>\d\d)[ T_]"
    r"(?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?:[.,](?P<f>\d{1,6}))?"
)


def stamp(line: str) -> float | None:
    """Seconds (on an arbitrary but consistent scale) from the time a line starts with:
    `2023-03-22 09:30:39`, `[2022-03-11 02:06:58,985]`, `04/21 21:03:53`, `[2020/11/16 1:1:2]`."""
    m = STAMP.match(line)
    if m is None:
        return None
    y, mo, d, h, mi, s, f = m.groups()
    minute = _MINUTES.get((y, mo, d, h, mi), False)
    if minute is False:  # a line a step prints its time: a minute's lines share its date
        if len(_MINUTES) >= 4096:
            _MINUTES.clear()
        minute = _MINUTES[y, mo, d, h, mi] = _minute(y, mo, d, h, mi)
    second = int(s)
    if minute is None or second > 59:  # as datetime says: no such date, hour or second
        return None
    return minute + second + (float(f"0.{f}") if f else 0.0)


_MINUTES: dict[tuple[str | None, ...], float | None] = {}


def _minute(y: str | None, mo: str, d: str, h: str, mi: str) -> float | None:
    try:
        day = datetime.datetime(int(y) if y else 2000, int(mo), int(d), int(h), int(mi))
    except ValueError:
        return None
    return (day - datetime.datetime(2000, 1, 1)).total_seconds()


def clock(text: str | None) -> float | None:
    """Seconds from tqdm's `[H:]MM:SS` (None for `?`)."""
    if not text or text == "?":
        return None
    seconds = 0.0
    for part in text.split(":"):
        if not part.isdigit():
            return None
        seconds = seconds * 60 + int(part)
    return seconds
