"""Driving the wizard with the keyboard, as a user would, and checking what it produced."""

from __future__ import annotations

import yaml
from textual.widgets import Input, Static

from screens.code import CodeStep
from screens.framework import FrameworkStep
from screens.launch import LaunchStep
from screens.resources import ResourcesStep
from screens.review import ReviewStep
from tui.planning.export import job_dict
from tui.planning.presets import get_preset
from tui.planning.stacks_env import EXPORT
from widgets.why import WhyPanel

from .conftest import make_app
from .palette import run_from_palette

ORDER = ["pytorch", "lightning", "huggingface", "deepspeed", "tensorflow", "horovod"]


async def type_into(pilot, selector: str, text: str) -> None:
    """Focus a field with the keyboard's help (a click stands in for tabbing), replace its text."""
    widget = pilot.app.screen.query_one(selector, Input)
    widget.focus()
    await pilot.pause()
    await pilot.press("end", *["backspace"] * len(widget.value), *list(text))
    await pilot.pause()


async def choose_framework(pilot, framework: str) -> None:
    for _ in range(len(ORDER)):  # the RadioSet has focus; go to the top
        await pilot.press("up")
    for _ in range(ORDER.index(framework)):
        await pilot.press("down")
    await pilot.press("enter")


async def test_each_framework_from_first_step_to_review_with_the_keyboard():
    expected = {
        "pytorch": ("pytorch", 8, "python train.py --epochs 5"),
        "lightning": (
            "pytorch",
            8,
            "python train.py --epochs 5 --trainer.num_nodes 3 --trainer.devices 8",
        ),
        "huggingface": ("pytorch", 8, "python train.py --epochs 5"),
        "deepspeed": ("pytorch", 8, "python train.py --epochs 5"),
        "tensorflow": ("tensorflow", None, "python train.py --epochs 5"),
        "horovod": ("mpi", 8, "python train.py --epochs 5"),
    }
    for framework, (dist, pcpi, command) in expected.items():
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await choose_framework(pilot, framework)
            assert app.spec.framework == framework
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert isinstance(app.screen, LaunchStep)
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert isinstance(app.screen, ResourcesStep)
            await type_into(pilot, "#nodes", "3")
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert isinstance(app.screen, CodeStep)
            await type_into(pilot, "#args", "--epochs 5")
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert isinstance(app.screen, ReviewStep), framework
            assert (app.spec.framework, app.spec.nodes, app.spec.args) == (
                framework,
                3,
                ("--epochs", "5"),
            )
            job = job_dict(app.current_plan("azureml"))
            assert job["distribution"]["type"] == dist
            if pcpi:
                assert job["distribution"]["process_count_per_instance"] == pcpi
            # after the export that puts dtrain-tui's stack dumper first on PYTHONPATH
            assert job["command"].startswith(EXPORT + command), framework
            assert yaml.safe_load(app.screen.shown["yaml"])["command"] == job["command"]


async def test_back_and_next_keep_every_answer():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await choose_framework(pilot, "deepspeed")
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press("down", "enter")  # per-node
        await pilot.pause()
        assert app.spec.launch == "per_node"
        await pilot.press("ctrl+n")
        await pilot.pause()
        await type_into(pilot, "#nodes", "4")
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, FrameworkStep)
        assert app.screen.query_one("#fw-deepspeed").value
        for _ in range(2):
            await pilot.press("ctrl+n")
            await pilot.pause()
        assert isinstance(app.screen, ResourcesStep)
        assert app.screen.query_one("#nodes", Input).value == "4"
        assert (app.spec.framework, app.spec.launch, app.spec.nodes) == ("deepspeed", "per_node", 4)


async def test_an_invalid_field_blocks_next_and_shows_the_models_message():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n", "ctrl+n")
        await pilot.pause()
        await type_into(pilot, "#gpus-per-node", "12")
        screen = app.screen
        message = str(screen.query_one("#error", Static).render())
        assert message == (
            "GPUs per node: Standard_ND96asr_v4 has 8 GPUs per node, not 12; set GPUs per node "
            "to 8 or fewer, or for 24 GPUs use more nodes: 3 nodes × 8 (no listed size has more "
            "than 8 GPUs per node)"
        )
        # Nothing beside the field explains the job in the numbers it no longer has.
        why = str(screen.query_one(WhyPanel).render())
        assert why.startswith("Not valid yet.") and "2 nodes × 8 GPUs" not in why
        world = str(screen.query_one("#world", Static).render())
        assert world == "GPUs per node is not valid yet: no totals"
        assert screen.check_action("next", ()) is None  # Footer key dimmed
        assert screen.query_one("#gpus-per-node").has_class("-invalid")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.screen is screen
        await type_into(pilot, "#gpus-per-node", "4")
        assert str(screen.query_one("#error", Static).render()) == ""
        assert "2 nodes × 4 GPUs" in str(screen.query_one(WhyPanel).render())
        assert "= 8 processes" in str(screen.query_one("#world", Static).render())
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, CodeStep)
        assert app.spec.gpus_per_node == 4


async def test_a_missing_code_folder_blocks_next(home):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for _ in range(3):
            await pilot.press("ctrl+n")
            await pilot.pause()
        await type_into(pilot, "#code", "nosuchdir")
        assert "Code folder: folder 'nosuchdir' does not exist" in str(
            app.screen.query_one("#error", Static).render()
        )
        assert app.screen.check_action("next", ()) is None
        (home / "nosuchdir").mkdir()
        await type_into(pilot, "#code", "nosuchdir")
        assert app.screen.check_action("next", ()) is True


async def test_edit_job_yaml_opens_at_review_with_the_imported_values(home):
    from tui.planning.job_import import load_job_file

    (home / "src").mkdir()
    path = home / "job.yml"
    path.write_text(
        "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\n"
        "code: src\ncommand: python train.py --lr 0.1\n"
        "environment: azureml:AzureML-acpt-pytorch-2.2-cuda12.1@latest\n"
        "compute: azureml:a100-cluster\n"
        "distribution: {type: mpi, process_count_per_instance: 4}\n"
        "resources: {instance_count: 3}\n"
        "environment_variables: {NCCL_DEBUG: INFO}\n"
        "tags: {team: vision}\n"
    )
    app = make_app(spec=load_job_file(path), review=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReviewStep)
        assert (app.spec.framework, app.spec.nodes, app.spec.gpus_per_node) == ("horovod", 3, 4)
        shown = yaml.safe_load(app.screen.shown["yaml"])
        assert shown["tags"] == {"team": "vision"}
        assert shown["compute"] == "azureml:a100-cluster"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CodeStep)  # Back walks the steps, answers in place
        assert app.screen.query_one("#compute", Input).value == "azureml:a100-cluster"


async def test_review_edit_button_jumps_back_to_its_step():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for _ in range(4):
            await pilot.press("ctrl+n")
            await pilot.pause()
        app.screen.query_one("#tabs").active = "tab-topology"
        await pilot.pause()
        await pilot.click("#edit-tab-topology")
        await pilot.pause()
        assert isinstance(app.screen, ResourcesStep)
        await type_into(pilot, "#nodes", "5")
        await pilot.press("ctrl+n", "ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, ReviewStep)
        assert "5 nodes" in str(app.screen.query_one("#summary", Static).render())


async def test_export_and_save_preset_from_review(home):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.goto_step(4)
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("enter")  # job.yml in the current folder
        await pilot.pause()
        assert yaml.safe_load((home / "job.yml").read_text())["resources"]["instance_count"] == 2
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("end", *["backspace"] * 6, *"team-ddp", "enter")
        await pilot.pause()
        from tui.planning.presets import get_preset

        # the code folder is kept absolute, so the preset opens the same code from anywhere
        assert get_preset("team-ddp").spec == app.spec.with_changes(code=str(home.resolve()))


async def test_help_and_palette_open():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert "Glossary" in app.screen.query_one("Markdown").source
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, FrameworkStep)

        await run_from_palette(pilot, "preset: horovod", "Preset: horovod")
        assert isinstance(app.screen, ReviewStep)
        assert app.spec == get_preset("horovod").spec


async def test_every_built_in_theme_renders_the_review():
    torchrun = get_preset("pytorch-torchrun").spec
    app = make_app(spec=torchrun.with_changes(env={"NCCL_DEBUG": "INFO"}), review=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        themes = sorted(app.available_themes)
        assert len(themes) > 5
        app.screen.query_one("#tabs").active = "tab-env"  # the most colourful tab
        legends = {}
        for theme in themes:
            app.theme = theme
            app.screen.sync()
            await pilot.pause()
            legend = app.screen.query_one("#legend").render()
            assert "Azure ML" in str(legend)
            legends[theme] = tuple(str(span.style) for span in legend.spans)
        # Colours resolved from each theme, not fixed: two unlike themes show unlike legends,
        # and within one theme each origin has its own colour.
        assert legends["nord"] != legends["textual-light"]
        # Azure ML, torchrun, dtrain-tui (its stack dumper), you
        assert len(set(legends["nord"])) == len(legends["nord"]) == 4


async def test_narrow_terminals_hide_the_why_panel_and_keep_the_form():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#why").display
        assert app.screen.query_one("#framework").region.width >= 60
