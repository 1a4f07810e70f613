"""The chart's x axis is a step only where the log printed one: a log without steps is drawn
against its points' index, and the axis says so."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tui.logs.progress import ProgressTracker
from widgets.metrics_chart import MetricsChart, MetricsPane


class PaneApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MetricsPane(classes="-shown")


async def _axis(lines: list[str]) -> tuple[str, str]:
    tracker = ProgressTracker()
    tracker.feed(lines, now=0.0)
    async with PaneApp().run_test(size=(100, 20)) as pilot:
        pane = pilot.app.query_one(MetricsPane)
        pane.show(tracker.series, tracker.standing())
        await pilot.pause()
        chart = pane.query_one(MetricsChart)
        return chart.x_label, "".join(segment.text for segment in chart.render_lines(chart.region))


async def test_a_log_without_steps_is_drawn_against_the_index_and_the_axis_says_so() -> None:
    label, drawn = await _axis([f"loss: {2 - i / 10:.2f} - accuracy: 0.{i}" for i in range(1, 9)])
    assert label == "log point (no step printed)" and "no step printed" in drawn


async def test_a_log_with_steps_is_drawn_against_them() -> None:
    label, drawn = await _axis([f"step {i * 10} | loss {2 - i / 10:.2f}" for i in range(1, 9)])
    assert label == "step" and "no step printed" not in drawn and "80" in drawn


async def test_the_examples_environment_line_is_not_charted_nor_in_the_header() -> None:
    env = '{"PIP_DEFAULT_TIMEOUT": "180", "SHLVL": "1", "HOME": "/root"}'
    tracker = ProgressTracker()
    tracker.feed([f"DTRAIN_ENV {env}"] + [f"step {i} | loss {2 - i / 10:.2f}" for i in range(4)])
    async with PaneApp().run_test(size=(100, 20)) as pilot:
        pane = pilot.app.query_one(MetricsPane)
        pane.show(tracker.series, tracker.standing())
        await pilot.pause()
        header = str(pane.query_one("#metrics-standing").render())
        assert "loss 1.7" in header and "shlvl" not in header and "pip" not in header
        assert [s.name for s in pane.query_one(MetricsChart)._series] == ["loss"]
