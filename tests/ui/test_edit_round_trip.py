"""`dtrain-tui edit job.yml`, Back to the first step, Next to Review, `x` into another folder:
a job the user did not touch is the same job azure-ai-ml would submit (issue 10)."""

from __future__ import annotations

import os

import pytest
import yaml
from textual.widgets import Input, RadioSet

from screens.framework import FrameworkStep
from screens.launch import LaunchStep
from screens.review import ReviewStep
from tests.core.job_corpus import corpus_jobs, relative_name, rest_form
from tui.planning.job_import import load_job_file
from widgets.why import WhyPanel

from .conftest import make_app
from .waits import on_screen, until

SHAPES = {  # one real file per shape the issue names
    "no distribution, conda file": "single-step/r/iris/job.yml",
    "no distribution, docker build": "scikit-learn/iris/job-docker-context.yml",
    "pytorch": "single-step/pytorch/cifar-distributed/job.yml",
    "mpi": "mnist-distributed-horovod/job.yml",
    "tensorflow with ps": "command_job/dist_job_3.yml",
    "ray": "command_job/dist_job_ray_1.yml",
    "deepspeed --deepspeed_config": "deepspeed/deepspeed-training/job.yml",
    "inline environment": "command_job/inlined_assets.yaml",
    "local inputs": "command_job/command_job_relative_inputs_test.yml",
    "outputs": "command_job/command_job_output_types.yml",
}
ALL = os.environ.get("DTRAIN_TUI_WHOLE_CORPUS") == "1"  # every file: slow, for a change to screens


def _cases():
    jobs = sorted(corpus_jobs())
    if ALL:
        return [pytest.param(p, id=relative_name(p)) for p in jobs]
    return [
        pytest.param(next(p for p in jobs if relative_name(p).endswith(end)), id=name)
        for name, end in SHAPES.items()
    ]


@pytest.mark.parametrize("path", _cases())
async def test_edit_back_to_the_start_and_forward_then_export_is_the_same_job(path, home):
    try:
        original = rest_form(path)
    except Exception:  # azure-ai-ml refuses the file itself: nothing to compare with
        pytest.skip("azure-ai-ml refuses the file as written")
    out = home / "elsewhere" / "deeper"
    out.mkdir(parents=True)
    app = make_app(spec=load_job_file(path), review=True, export_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: on_screen(app, ReviewStep), "Review shows")
        while not isinstance(app.screen, FrameworkStep):  # Back through every step
            await pilot.press("escape")
            await pilot.pause()
        while not isinstance(app.screen, ReviewStep):  # and Next through them again
            await until(pilot, lambda: app.screen.is_mounted, "the step shows")
            assert app.screen.can_advance, f"{type(app.screen).__name__} refuses Next"
            await pilot.press("ctrl+n")
            await pilot.pause()
        await pilot.press("x")
        await until(pilot, lambda: app.screen.query("#path"), "the export dialog")
        field = app.screen.query_one("#path", Input)
        field.value = str(out / "job.yml")
        await pilot.press("enter")
        await until(pilot, lambda: (out / "job.yml").exists(), "the export is written")
    assert rest_form(out / "job.yml") == original


async def test_a_job_that_is_not_distributed_is_made_distributed_on_the_launch_step(home):
    path = next(p for p in corpus_jobs() if relative_name(p).endswith("r/iris/job.yml"))
    app = make_app(spec=load_job_file(path), review=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: on_screen(app, ReviewStep), "Review shows")
        while not isinstance(app.screen, LaunchStep):
            await pilot.press("escape")
            await pilot.pause()
        await until(pilot, lambda: on_screen(app, LaunchStep), "the launch step")
        modes = app.screen.query_one("#launch", RadioSet)
        assert modes.pressed_button.id == "mode-single"
        why = str(app.screen.query_one(WhyPanel).render())
        assert "Not distributed" in why and "has no distribution:" in why
        assert "To make it distributed" in why and "type: pytorch" in why and "RANK" in why
        await pilot.press("up", "up", "enter")  # per-process, with the keyboard
        await until(pilot, lambda: app.spec.launch == "per_process", "per-process is chosen")
        assert "To make it distributed" not in str(app.screen.query_one(WhyPanel).render())
        await pilot.press("ctrl+n", "ctrl+n", "ctrl+n")
        await until(pilot, lambda: on_screen(app, ReviewStep), "back at Review")
        await pilot.press("x")
        await until(pilot, lambda: app.screen.query("#path"), "the export dialog")
        app.screen.query_one("#path", Input).value = str(home / "job.yml")
        await pilot.press("enter")
        await until(pilot, lambda: (home / "job.yml").exists(), "the export is written")
    job = yaml.safe_load((home / "job.yml").read_text())
    assert job["distribution"] == {"type": "pytorch", "process_count_per_instance": 1}
    assert job["command"] == yaml.safe_load(path.read_text())["command"]
