"""A metric's points as the tracker (tui/logs/progress.py) keeps them and the chart and
`dtrain-tui metrics` read them: the printed step (NaN where none was), the value, the epoch and
the point's index. No Textual, no Azure here."""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field, replace
from itertools import pairwise

from tui.logs.progress_names import is_eval


@dataclass
class Series:
    """One metric's points: the step each was printed at (NaN: the log printed none), the value,
    the epoch, and the point's index (the how-many-th line of the log that gave points)."""

    name: str
    xs: array = field(default_factory=lambda: array("d"))
    """The step as the log printed it (within its epoch where the log counts so); NaN: none."""
    ys: array = field(default_factory=lambda: array("d"))
    source: str = "log"
    """Where the points came from: "log" (parsed here) or "mlflow" (the job's tracking store)."""
    es: array = field(default_factory=lambda: array("d"))
    """The epoch at each point (NaN where none was known); empty for series without epochs."""
    ns: array = field(default_factory=lambda: array("d"))
    """Each point's index: its line's number among the lines that gave points (1, 2, …), what
    a chart plots against where no step was printed. Never a step."""
    stepless: int = 0
    """Points without a printed step."""
    rewinds: int = 0
    """Points whose step is below the one before (a step that restarts each epoch)."""

    def __post_init__(self) -> None:
        if len(self.ns) < len(self.ys):  # built from arrays: number the points, count the steps
            self.ns = array("d", range(1, len(self.ys) + 1))
        xs = self.xs
        self.stepless = sum(1 for x in xs if x != x)
        self.rewinds = sum(1 for a, b in pairwise(xs) if b < a)

    @property
    def last(self) -> float | None:
        return self.ys[-1] if self.ys else None

    @property
    def validation(self) -> bool:
        """Evaluation points (a `val_…` series), kept apart from training's."""
        return self.name.startswith("val_") or is_eval(self.name)

    @property
    def stepped(self) -> bool:
        """Every point has a printed step and the steps never go back: a step axis fits."""
        return not self.stepless and not self.rewinds

    def add(self, x: float, y: float, epoch: float | None = None, n: float | None = None) -> None:
        """One point at step `x` (NaN: none printed), index `n` (default: the next)."""
        xs = self.xs
        if x != x:
            self.stepless += 1
        elif xs and x < xs[-1]:
            self.rewinds += 1
        self.ns.append(len(self.ys) + 1 if n is None else n)
        xs.append(x)
        self.ys.append(y)
        es = self.es
        if es:  # once a point had an epoch, every point has one (NaN: none known)
            es.append(math.nan if epoch is None else epoch)
        elif epoch is not None:
            es.extend([math.nan] * (len(self.ys) - 1))
            es.append(epoch)

    def extend(
        self,
        xs: list[float],
        ys: list[float],
        epochs: list[float] | None,
        ns: list[float],
        stepless: bool = False,
        rewinds: int = 0,
    ) -> None:
        """`add` for many points at once (`epochs`: each point's, or None: none known). The
        caller says what it knows of `xs`: all NaN (`stepless`), and how often they go back
        among themselves (`rewinds`)."""
        before = len(self.ys)
        if stepless:
            self.stepless += len(xs)
        else:
            self.rewinds += rewinds + (1 if self.xs and xs[0] < self.xs[-1] else 0)
        self.xs.fromlist(xs)
        self.ys.fromlist(ys)
        self.ns.fromlist(ns)
        es = self.es
        if epochs is not None:
            if not es:
                es.fromlist([math.nan] * before)
            es.fromlist(epochs)
        elif es:
            es.fromlist([math.nan] * len(ys))

    def epoch_at(self, i: int) -> float | None:
        """The epoch of point `i`, when known."""
        if i < len(self.es) and not math.isnan(self.es[i]):
            return self.es[i]
        return None

    def clear(self) -> None:
        """Forget the points (a caller that wrote them out and keeps memory bounded)."""
        del self.xs[:], self.ys[:], self.es[:], self.ns[:]


def _epochs_of(series: Series) -> array:
    """A series' epochs, one per point (NaN where none was known)."""
    es = array("d", series.es)
    es.extend([math.nan] * (len(series.ys) - len(es)))
    return es


def merge_series(*groups: dict[str, Series]) -> dict[str, Series]:
    """Series from several sources in one map; a name found in more than one source is
    labelled by source (`loss (log)`, `loss (mlflow)`) so neither hides the other."""
    seen: dict[str, list[Series]] = {}
    for group in groups:
        for series in group.values():
            seen.setdefault(series.name, []).append(series)
    merged: dict[str, Series] = {}
    for name, found in seen.items():
        if len(found) == 1:
            merged[name] = found[0]
            continue
        for series in found:
            merged[f"{name} ({series.source})"] = replace(series, name=f"{name} ({series.source})")
    return merged
