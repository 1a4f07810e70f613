"""Which numbers are metrics: those whose line's template recurs.

A stream repeats a few line shapes; what varies between the repeats is data, what stays is
their label. A line's template is its words with every number masked out (`step 10 | loss 2.5`
and `step 11 | loss 2.25` share `step loss`; a bar's glyphs, separators and spacing are no
words). An environment dump, a configuration print or a banner is printed once: its template
never recurs, so its numbers (`{"SHLVL": "1", "PIP_DEFAULT_TIMEOUT": "180"}`) are never a
series. A name becomes a series when two of its points came from lines of one template, or at
once when the name itself says it is a metric people print (`loss`, `lr`, `accuracy`,
`grad_norm`: tui/logs/progress_names.py); until then its points are held, and join the series,
in order, when it is admitted.

One generic mechanism for every trainer. A maintained log-template miner (`drain3` 0.9.11)
was measured against this masking on the progress corpus: the same series and no false one on
every dev stream, but 3.7 times as many templates on the corpus's lines with their numbers
varied (947 clusters to 257: it splits tokens such as `[1][2400/7517]` or `loss:0.5` whose
digits vary, so a recurring line can go unseen), about the same cost a line (24 µs to 20), and
two more dependencies; so it is not used (tests/logs/data/progress/scores.md).
No Textual, no Azure here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tui.logs.progress_names import is_metric_name

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z]+")
MAX_HELD = 4096
"""Names held at most (each with its points) before all held are forgotten."""
MAX_POINTS = 256
"""Points held for one name at most (a name printed by ever new lines, once each)."""


def template(line: str) -> str:
    """The line's words with its numbers masked out: what lines of one template share."""
    return " ".join(_WORD.findall(_NUMBER.sub(" ", line)))


@dataclass(slots=True)
class _Held:
    templates: set[str] = field(default_factory=set)
    points: list[tuple[float, float, float | None, float]] = field(default_factory=list)


class Recurrence:
    """The names a stream has made series of, and the points held for the others."""

    def __init__(self) -> None:
        self.admitted: set[str] = set()
        self._held: dict[str, _Held] = {}

    def admit(self, name: str) -> list[tuple[float, float, float | None, float]]:
        """Make `name` a series (its points came from a run of lines of one template): the
        points held for it, to add before the run's."""
        self.admitted.add(name)
        held = self._held.pop(name, None)
        return held.points if held is not None else []

    def hold(
        self, name: str, key: str, point: tuple[float, float, float | None, float]
    ) -> list[tuple[float, float, float | None, float]] | None:
        """A point of `name` from a line of template `key`: the points to add, in order, once
        the name is admitted (the held ones first), else None (held)."""
        if is_metric_name(name):
            return [*self.admit(name), point]
        held = self._held.get(name)
        if held is None:
            if len(self._held) >= MAX_HELD:
                self._held.clear()
            held = self._held[name] = _Held()
        if key in held.templates:
            return [*self.admit(name), point]
        held.templates.add(key)
        if len(held.points) < MAX_POINTS:
            held.points.append(point)
        return None
