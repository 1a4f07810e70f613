"""`MetricsPane`: where training stands (epoch, step, rate, ETA), a live chart of its metrics,
and each rank's speed.

The chart is `textual-plotext`'s `PlotextPlot` (plotext drawn with braille dots: axes, ticks,
a legend, several series in theme colours). Textual's own `Sparkline` redraws faster but has no
axes, no x values and one series, so a loss curve could not be read off it. plotext draws in
time linear in the points it is given, ~700 ms for 100k, so each series is first reduced to at
most two points per column (the minimum and maximum of each bucket, so spikes survive): 100k
points redraw in a few milliseconds (tests/benchmarks/bench_metrics.py).

What the pane shows is pushed in with `show()`: series (objects with `name`, `xs`, `ys`, `ns`,
`source` and `stepped`), a standing (`step`, `total`, `epoch`, `epochs`, `rate`, `eta`,
`eta_scope`) and the ranks' rates. The job screen owns the parsing (tui/logs/progress.py); this
only draws. The x axis is the printed step where every drawn point has one and the steps never
go back; else it is the point's index (its line's number among those that gave points), and the
axis says why: a step the log never printed is never drawn as one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tui.core.words import clock

MAX_LINES = 4
"""Series drawn at once (more would be unreadable in a terminal)."""


@dataclass(frozen=True)
class RankRate:
    """One rank's speed as the pane shows it."""

    label: str
    rate: float | None
    straggler: bool = False


def decimate(xs: Sequence[float], ys: Sequence[float], buckets: int) -> tuple[list, list]:
    """At most `2 * buckets` points that draw like `xs`/`ys`: each bucket's minimum and maximum
    (in their order), so a spike or a NaN-free dip is never averaged away."""
    n = len(ys)
    if n <= 2 * buckets:
        return list(xs), list(ys)
    out_x: list[float] = []
    out_y: list[float] = []
    size = n / buckets
    for b in range(buckets):
        start, end = int(b * size), int((b + 1) * size)
        chunk = ys[start:end]
        low, high = min(chunk), max(chunk)
        i_low, i_high = start + chunk.index(low), start + chunk.index(high)
        for i in sorted({i_low, i_high}):
            out_x.append(xs[i])
            out_y.append(ys[i])
    return out_x, out_y


class DecimationCache:
    """`decimate()` for series that only grow: buckets of a power-of-two size, each reduced
    once and kept, so a redraw reduces only the buckets that points arrived in (a series twice
    as long doubles the bucket size and starts again: amortised, each point is read twice)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, bool], tuple[int, int, list[float], list[float]]] = {}

    def points(self, series: Any, buckets: int, by_index: bool = False) -> tuple[list, list]:
        """The series reduced to about `2 * buckets` points, against its steps or (`by_index`)
        its points' indexes."""
        xs, ys = (series.ns if by_index else series.xs), series.ys
        n = len(ys)
        if n <= 2 * buckets:
            return list(xs), list(ys)
        size = 1 << max(0, math.ceil(math.log2(n / buckets)))
        key = (series.name, by_index)
        kept_size, done, out_x, out_y = self._kept.get(key, (0, 0, [], []))
        if kept_size != size or done * size > n or (out_x and out_x[0] != xs[0]):
            done, out_x, out_y = 0, [], []
        full = n // size
        if full > done:
            more_x, more_y = decimate(xs[done * size : full * size], ys[done * size : full * size],
                                      full - done)  # fmt: skip
            out_x, out_y = out_x + more_x, out_y + more_y
            done = full
        self._kept[key] = (size, done, out_x, out_y)
        tail_x, tail_y = decimate(xs[done * size :], ys[done * size :], 1)
        return out_x + tail_x, out_y + tail_y


def chart_group(names: Sequence[str]) -> list[str]:
    """Which series share the chart: the losses (one scale), else accuracies, else the first.
    The training loss comes first and the validation loss second, so neither is crowded out by
    a loss's parts and both are drawn, labelled, on the same axis."""
    for word in ("loss", "acc"):
        found = [n for n in names if word in n.lower()]
        if found:
            return sorted(found, key=_chart_order)[:MAX_LINES]
    return list(names[:1])


def _chart_order(name: str) -> int:
    base = name.split(" (", 1)[0]  # "loss (mlflow)": the same measure from another source
    if base == "loss":
        return 0
    if base.startswith("val_") and base.endswith("loss"):
        return 1
    return 2


def axis_label(series: Sequence[Any]) -> str:
    """What the x axis counts: `step` where every point of these series printed one and the
    steps only grow; else the points' index, saying why (no step printed, or a step that
    restarts each epoch)."""
    drawn = [s for s in series if len(s.ys)]
    if all(getattr(s, "stepped", True) for s in drawn):
        return "step"
    if any(getattr(s, "stepless", 0) for s in drawn):
        return "log point (no step printed)"
    return "log point (the step restarts each epoch)"


class MetricsChart(PlotextPlot):
    """A line chart of some series against step, decimated to the widget's width."""

    DEFAULT_CSS = """
    MetricsChart { height: 1fr; min-height: 6; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._series: list[Any] = []
        self._cache = DecimationCache()
        self.points_drawn = 0
        """Points handed to plotext at the last redraw (after decimation)."""
        self.x_label = "step"
        """What the x axis counted at the last redraw."""

    def plot(self, series: Sequence[Any]) -> None:
        """Draw these series (at the next refresh)."""
        self._series = list(series)
        self.refresh()

    def render(self):
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        buckets = max(10, self.size.width - 12)
        drawn = 0
        label = axis_label(self._series)
        by_index = label != "step"
        for series in self._series:
            if not len(series.ys):
                continue
            xs, ys = self._cache.points(series, buckets, by_index)
            drawn += len(xs)
            # A dense series is dots two to a column: joining them by lines (plot) costs plotext
            # several times more and draws the same picture at this density.
            draw = plt.scatter if len(series.ys) > 2 * buckets else plt.plot
            draw(xs, ys, label=series.name, marker="braille")
        self.points_drawn = drawn
        self.x_label = label
        plt.xlabel(label)
        return super().render()


class MetricsPane(Vertical):
    """Where training stands, its chart, and each rank's speed (toggled on the job screen)."""

    DEFAULT_CSS = """
    MetricsPane { height: 16; display: none; border-top: solid $panel-lighten-2; }
    MetricsPane.-shown { display: block; }
    MetricsPane #metrics-standing { height: auto; padding: 0 1; }
    MetricsPane #metrics-ranks { height: auto; padding: 0 1; display: none; }
    MetricsPane #metrics-ranks.-shown { display: block; }
    MetricsPane #metrics-empty { height: 1fr; padding: 1 2; color: $text-muted; display: none; }
    MetricsPane.-empty #metrics-empty { display: block; }
    MetricsPane.-empty MetricsChart { display: none; }
    """

    STRAGGLER: ClassVar[str] = "straggler"

    EMPTY: ClassVar[str] = (
        "No training progress in this log yet: the chart fills as lines with loss, "
        "accuracy, step or epoch arrive (tqdm, Lightning, Keras, Hugging Face, key: value)."
    )

    def __init__(self, *, id: str | None = None, classes: str = "") -> None:
        # Empty from the start (not set on mount: a pane torn down before it mounted its
        # children, as when the app exits at once, must not fail looking for them).
        super().__init__(id=id, classes=f"-empty {classes}".strip())

    def compose(self) -> ComposeResult:
        yield Static("", id="metrics-standing")
        yield MetricsChart(id="metrics-chart")
        yield Static(self.EMPTY, id="metrics-empty")
        yield Static("", id="metrics-ranks")

    def show(
        self,
        series: Mapping[str, Any],
        standing: Any,
        ranks: Sequence[RankRate] = (),
        note: str | None = None,
    ) -> None:
        """Draw the latest: the series (name → points), the standing, the ranks' rates."""
        names = [name for name, s in series.items() if len(s.ys)]
        self.set_class(not names, "-empty")
        if names:
            self.query_one(MetricsChart).plot([series[n] for n in chart_group(names)])
        text = standing_text(standing)
        latest = [
            f"{escape(name)} [b]{_short(series[name].ys[-1])}[/b]"
            for name in names[: MAX_LINES * 2]
        ]
        parts = [p for p in (text, " · ".join(latest)) if p]
        if note:
            parts.append(f"[$text-muted]{escape(note)}[/]")
        self.query_one("#metrics-standing", Static).update("\n".join(parts) or " ")
        strip = self.query_one("#metrics-ranks", Static)
        text = ranks_text(ranks)
        strip.set_class(bool(text), "-shown")
        if text:
            strip.update(text)


def standing_text(standing: Any) -> str:
    """`epoch 2/5 · step 844/2110 · 3.02 steps/s · ETA 4:51` (the parts that are known)."""
    if standing is None:
        return ""
    parts: list[str] = []
    if standing.epoch is not None:
        epoch = f"{standing.epoch:g}"
        parts.append(f"epoch [b]{epoch}[/b]" + (f"/{standing.epochs}" if standing.epochs else ""))
    if standing.step is not None:
        total = f"/{standing.total:,}" if standing.total else ""
        parts.append(f"step [b]{standing.step:,}[/b]{total}")
    if standing.rate:
        parts.append(f"[b]{_rate(standing.rate)}[/b] steps/s")
    if standing.eta is not None:
        scope = " (this epoch)" if standing.eta_scope == "epoch" else ""
        parts.append(f"ETA [b]{clock(standing.eta)}[/b]{scope}")
    if getattr(standing, "diverged", False):
        step, epoch = standing.diverged_step, standing.diverged_epoch
        at = f" at step {step:,}" if step is not None else ""
        at = at or (f" at epoch {epoch:g}" if epoch is not None else "")
        parts.append(f"[$error]loss [b]nan[/b]{at}[/]")
    return " · ".join(parts)


def ranks_text(ranks: Sequence[RankRate]) -> str:
    """Each rank's steps/s side by side, a straggler in the warning colour; a rank with no
    rate yet (fewer than two timed steps) is left out, and with none the line is empty."""
    parts = []
    for rank in ranks:
        if not rank.rate:
            continue
        text = f"{escape(rank.label)} {_rate(rank.rate)}/s"
        parts.append(f"[$warning b]{text} (straggler)[/]" if rank.straggler else text)
    return "speed by rank: " + "  ".join(parts) if parts else ""


def _rate(value: float) -> str:
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def _short(value: float) -> str:
    return f"{value:.4g}"
