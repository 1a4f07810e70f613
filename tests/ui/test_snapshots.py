"""What each step and each Review tab looks like at 100×30 (SVG baselines in __snapshots__)."""

from __future__ import annotations

import pytest

from tui.core.spec import JobSpec

from .conftest import make_app

SIZE = (100, 30)


def at_step(step: int, tab: str | None = None, spec: JobSpec | None = None):
    async def run_before(pilot) -> None:
        await pilot.pause()
        for _ in range(step):
            await pilot.press("ctrl+n")
            await pilot.pause()
        if tab:
            pilot.app.screen.query_one("#tabs").active = tab
            await pilot.pause()

    return run_before


@pytest.mark.parametrize(
    "step", [0, 1, 2, 3, 4], ids=["framework", "launch", "resources", "code", "review"]
)
def test_step(snap_compare, step):
    assert snap_compare(make_app(), run_before=at_step(step), terminal_size=SIZE)


@pytest.mark.parametrize("tab", ["tab-env", "tab-topology", "tab-yaml", "tab-sdk"])
def test_review_tab(snap_compare, tab):
    assert snap_compare(make_app(), run_before=at_step(4, tab), terminal_size=SIZE)


def test_review_tf_config_tab(snap_compare):
    spec = JobSpec(
        framework="tensorflow",
        launch="per_node",
        nodes=2,
        parameter_servers=1,
        code=".",
        script="train.py",
    )
    app = make_app(spec=spec, review=True)
    assert snap_compare(app, run_before=at_step(0, "tab-json"), terminal_size=SIZE)


def test_sku_table_with_a_warning(snap_compare):
    spec = JobSpec(sku="Standard_NC96ads_A100_v4", gpus_per_node=4, nodes=2)
    assert snap_compare(make_app(spec=spec), run_before=at_step(2), terminal_size=SIZE)


def test_launch_step_explains_a_mode_that_does_not_fit(snap_compare):
    spec = JobSpec(framework="tensorflow", launch="per_node")
    assert snap_compare(make_app(spec=spec), run_before=at_step(1), terminal_size=SIZE)
