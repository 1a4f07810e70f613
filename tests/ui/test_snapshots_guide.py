"""What the guide's two extras look like: the DeepSpeed tab and the create-cluster dialog."""

from __future__ import annotations

from tui.planning.plan import plan
from tui.planning.presets import get_preset

from .conftest import make_app


def generated_config():
    """The DeepSpeed preset with the config built from the plan (the shipped one runs its
    example's own ds_config.json), in a folder of the user's."""
    return get_preset("deepspeed").spec.with_changes(
        deepspeed_config=None, zero_stage=2, code=".", script="train.py"
    )


SIZE = (110, 40)


def test_review_deepspeed_tab(snap_compare):
    app = make_app(spec=generated_config(), review=True)

    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.screen.query_one("#tabs").active = "tab-config"
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_create_cluster_dialog(snap_compare):
    from screens.create_compute import CreateComputeScreen

    spec = get_preset("pytorch-ddp").spec
    app = make_app(spec=spec, review=True)

    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(CreateComputeScreen(None, plan(spec), "gpu-a100"))
        await pilot.pause()
        await pilot.click("#low-priority")
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)
