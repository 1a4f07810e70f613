"""Code & env builds the DeepSpeed config with the user's numbers; Review shows it."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import Input, Static, TabbedContent

from tests.ui.conftest import make_app
from tui.planning.presets import get_preset


def generated_config():
    """The DeepSpeed preset with the config built from the plan (the shipped one runs its
    example's own ds_config.json), in a folder of the user's."""
    return get_preset("deepspeed").spec.with_changes(
        deepspeed_config=None, zero_stage=2, code=".", script="train.py"
    )


def _text(static: Static) -> str:
    """What a Static shows, as plain text (its content may be a group of rich renderables)."""
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(static.content)
    return console.export_text()


async def test_typed_batch_numbers_reach_the_config_and_review_shows_the_arithmetic():
    app = make_app(spec=generated_config(), review=True)
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        app.goto_step(3)
        await pilot.pause()
        box = app.screen.query_one("#ds-grad-accum", Input)
        box.focus()
        await pilot.press("end", "backspace", "4")
        await pilot.pause()
        p = app.current_plan()
        assert p.config_file.data["gradient_accumulation_steps"] == 4
        assert p.config_file.data["train_batch_size"] == 4 * 4 * p.world_size
        shown = str(app.screen.query_one("#form-explained", Static).render())
        assert f"× accumulation 4 × WORLD_SIZE {p.world_size} = {16 * p.world_size}" in shown

        box.value = "0"  # DeepSpeed needs at least one step: the field says so, and keeps 4
        await pilot.pause()
        assert "Grad. accumulation:" in str(app.screen.query_one("#error", Static).render())
        assert app.spec.ds_grad_accum == 4

        box.value = "2"
        await pilot.pause()
        app.goto_step(4)
        await pilot.pause()
        app.screen.query_one(TabbedContent).active = "tab-config"
        await pilot.pause()
        body = _text(app.screen.query_one("#tab-config-body", Static))
        assert f"accumulation 2 × WORLD_SIZE {p.world_size}" in body
        assert '"train_batch_size": ' + str(4 * 2 * p.world_size) in body


async def test_the_deepspeed_tab_and_section_show_only_for_deepspeed():
    app = make_app(spec=get_preset("pytorch-ddp").spec, review=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        tabs = app.screen.query_one(TabbedContent)
        assert not tabs.get_tab("tab-config").display
        app.goto_step(3)
        await pilot.pause()
        assert not app.screen.query_one("#form-deepspeed").display
