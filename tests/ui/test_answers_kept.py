"""The user's answers are kept, and names say what runs (issue 26, items 2 and 3): switching
framework keeps nodes × GPUs (on this machine too) and says what it could not keep and why; a
display name that states the shape (`pytorch-ddp-2x8`) follows the counts until the user types
a name of their own; presets' names share their preset's prefix."""

from __future__ import annotations

from pathlib import Path

from screens.framework import FrameworkStep
from screens.resources import ResourcesStep
from screens.review import ReviewStep
from tui.core.spec import JobSpec
from tui.planning.export import to_yaml
from tui.planning.job_import import load_job_file
from tui.planning.presets import get_preset, load_presets
from widgets.why import WhyPanel

from .conftest import make_app
from .test_wizard import type_into
from .waits import notices, on_screen, until


async def choose_framework(pilot, framework: str) -> None:
    await pilot.click(f"#fw-{framework}")
    await pilot.pause()


async def go_to(pilot, step) -> None:
    """Back (escape) to the first step, or Next (ctrl+n) to a later one, until `step` shows."""
    app = pilot.app
    while not isinstance(app.screen, step):
        await pilot.press("escape" if step is FrameworkStep else "ctrl+n")
        await until(pilot, lambda: app.screen.is_mounted, "the step shows")


async def test_switching_framework_on_this_machine_keeps_nodes_and_gpus():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        await go_to(pilot, ResourcesStep)
        await type_into(pilot, "#nodes", "1")
        await type_into(pilot, "#gpus-per-node", "3")
        assert (app.spec.nodes, app.spec.gpus_per_node) == (1, 3)
        await go_to(pilot, FrameworkStep)
        for framework in ("lightning", "deepspeed", "huggingface", "pytorch"):
            await choose_framework(pilot, framework)
            assert app.spec.framework == framework
            assert (app.spec.nodes, app.spec.gpus_per_node) == (1, 3), framework
        await go_to(pilot, ResourcesStep)
        assert app.screen.query_one("#nodes").value == "1"


async def test_the_why_on_the_first_step_says_the_counts_this_machine_runs():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        await go_to(pilot, ResourcesStep)
        await type_into(pilot, "#nodes", "1")
        await go_to(pilot, FrameworkStep)
        why = str(app.screen.query_one(WhyPanel).render())
        assert "1 simulated node × 2 processes" in why
        assert "2 simulated nodes" not in why and "2 × 2" not in why


async def test_a_switch_says_what_it_could_not_keep_and_why():
    spec = JobSpec(framework="deepspeed", zero_stage=3, nodes=3, gpus_per_node=4)
    app = make_app(spec=spec)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await choose_framework(pilot, "pytorch")
        assert (app.spec.zero_stage, app.spec.nodes, app.spec.gpus_per_node) == (None, 3, 4)
        # A notice is a message the app handles a moment later: wait for it.
        await until(
            pilot, lambda: "ZeRO stage cleared: only DeepSpeed has it" in notices(app), "it"
        )
        await choose_framework(pilot, "tensorflow")
        assert app.spec.launch == "per_node"
        await until(pilot, lambda: "Launch is now per-node: " in notices(app), "the launch note")
        said = notices(app)
        assert "Nodes is now" not in said and "GPUs per node is now" not in said


async def test_a_generated_name_follows_the_counts_and_a_typed_one_stays():
    preset = get_preset("pytorch-ddp")
    assert preset.spec.display_name == "pytorch-ddp-2x8"
    app = make_app(spec=preset.spec, review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: on_screen(app, ReviewStep), "Review")
        await go_to(pilot, FrameworkStep)
        await go_to(pilot, ResourcesStep)
        await type_into(pilot, "#nodes", "4")
        await type_into(pilot, "#gpus-per-node", "2")
        assert app.spec.display_name == "pytorch-ddp-4x2"
        await go_to(pilot, ReviewStep)
        assert "display_name: pytorch-ddp-4x2" in to_yaml(app.current_plan("azureml"))

        await pilot.press("escape")  # the Code step: a name the user types is theirs
        await type_into(pilot, "#display-name", "nightly")
        await pilot.press("escape")
        await type_into(pilot, "#nodes", "2")
        assert app.spec.display_name == "nightly"


async def test_an_imported_jobs_name_follows_its_new_node_count(home: Path):
    job = home / "job.yml"
    job.write_text(
        "command: python train.py\ncode: .\ncompute: azureml:gpu-cluster\n"
        "environment: azureml:AzureML-acpt-pytorch-2.2-cuda12.1@latest\n"
        "display_name: cifar-2x4\nresources:\n  instance_count: 2\n"
        "distribution:\n  type: pytorch\n  process_count_per_instance: 4\n"
    )
    app = make_app(spec=load_job_file(job), review=True, export_path=job)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: on_screen(app, ReviewStep), "Review")
        await go_to(pilot, FrameworkStep)
        await go_to(pilot, ResourcesStep)
        await type_into(pilot, "#nodes", "3")
        assert app.spec.display_name == "cifar-3x4"


def test_shipped_presets_name_their_jobs_with_the_presets_prefix():
    presets, _ = load_presets()
    for preset in presets:
        framework = preset.spec.framework
        for name in (preset.spec.display_name, preset.spec.experiment):
            if name:
                assert name.startswith((preset.name, framework)), (preset.name, name)
