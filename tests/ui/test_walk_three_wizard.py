"""The third walk (issue 40), the wizard's part: an example the app chose follows the framework
(item 3) while a script the user typed stays; Azure ML then "This machine" again keeps the
nodes × GPUs the user typed, and a cluster's shape made a rehearsal is said (item 9); a saved
preset opens the same code folder from anywhere (item 17)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

from screens.code import CodeStep
from screens.framework import FrameworkStep
from screens.resources import ResourcesStep
from screens.review import ReviewStep
from tui.planning.presets import get_preset, samples_dir

from .conftest import make_app
from .test_answers_kept import choose_framework, go_to
from .test_wizard import type_into
from .waits import notices, until

ROOT = Path(__file__).resolve().parents[2]


async def test_switching_framework_swaps_the_example_the_app_chose(home: Path):
    (home / "train.py").unlink()  # a fresh folder: "this machine" runs the framework's example
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await choose_framework(pilot, "lightning")
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        assert app.spec.script == "train_lightning.py"
        for framework, example in (
            ("huggingface", "train_hf.py"),
            ("deepspeed", "train_deepspeed.py"),
            ("pytorch", "train_ddp.py"),
            ("lightning", "train_lightning.py"),
        ):
            await choose_framework(pilot, framework)
            assert app.spec.script == example, framework
            assert app.spec.code == str(samples_dir())
            said = f"example {example}: "
            await until(pilot, lambda: said in notices(app), "the switch says so")  # noqa: B023
        await go_to(pilot, CodeStep)
        assert app.screen.query_one("#script").value == "train_lightning.py"
        # pytorch's example added `--epochs 3`; it went with that example
        assert app.spec.args == ()


async def test_a_script_the_user_typed_stays_when_the_framework_changes(home: Path):
    (home / "mine.py").write_text("print('mine')\n")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await go_to(pilot, CodeStep)
        await type_into(pilot, "#script", "mine.py")
        assert (app.spec.code, app.spec.script) == (".", "mine.py")
        await go_to(pilot, FrameworkStep)
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        for framework in ("lightning", "huggingface", "deepspeed"):
            await choose_framework(pilot, framework)
            assert (app.spec.code, app.spec.script) == (".", "mine.py"), framework


async def test_azure_ml_then_this_machine_again_keeps_the_counts_the_user_typed():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        await go_to(pilot, ResourcesStep)
        await type_into(pilot, "#nodes", "1")
        await type_into(pilot, "#gpus-per-node", "3")
        await go_to(pilot, FrameworkStep)
        await pilot.click("#target-azureml")
        await until(pilot, lambda: app.review_target == "azureml", "Azure ML")
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine again")
        assert (app.spec.nodes, app.spec.gpus_per_node) == (1, 3)
        await go_to(pilot, ResourcesStep)
        assert app.screen.query_one("#gpus-per-node").value == "3"


async def test_a_cluster_shape_made_a_rehearsal_says_so():
    app = make_app(spec=get_preset("pytorch-ddp").spec)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        assert (app.spec.nodes, app.spec.gpus_per_node) == (2, 2)
        await until(
            pilot, lambda: "Nodes × GPUs per node: 2 × 2 here (was 2 × 8)" in notices(app), "it"
        )


async def test_a_saved_preset_opens_the_same_code_from_another_folder(home: Path):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await go_to(pilot, ReviewStep)
        assert app.spec.code == "."
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("end", *["backspace"] * 6, *"mine", "enter")
        await until(pilot, lambda: "Saved preset mine" in notices(app), "saved")
    elsewhere = home / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "tui", "export", "--preset", "mine", "-o", "job.yml"],
        cwd=elsewhere,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    code = yaml.safe_load((elsewhere / "job.yml").read_text())["code"]
    assert (elsewhere / code).resolve() == home.resolve()  # the folder it was saved from
