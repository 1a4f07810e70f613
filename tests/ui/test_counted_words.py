"""Words that count (issue 26, item 13): one node is "1 node" and one line "1 line" wherever the
app says a count (one helper, tui.core.words); F1 lists no `super+c` row (a terminal never sends
Command keys); attach's Open stays disabled until there is a job to open."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from textual.widgets import Button, Markdown, Static

from screens.attach import AttachScreen
from screens.code import CodeStep
from screens.help import HelpScreen
from screens.job import JobScreen
from screens.launch import LaunchStep
from screens.resources import ResourcesStep
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.backends.azureml.listing import JobSummary, RecentJobs
from tui.backends.base import JobHandle, JobState
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.core.words import counted
from widgets.why import WhyPanel

from .conftest import make_app
from .test_answers_kept import go_to
from .test_wizard import type_into
from .waits import on_screen, until

job_root = backends.job_root
backend = backends.backend


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def test_counted_says_one_of_a_thing_and_many_of_others():
    assert [counted(n, "node") for n in (0, 1, 2)] == ["0 nodes", "1 node", "2 nodes"]
    assert counted(1, "process") == "1 process" and counted(3, "process") == "3 processes"
    assert counted(12400, "line") == "12,400 lines" and counted(2, "ps", "ps") == "2 ps"


async def test_one_node_is_one_node_on_the_resources_and_launch_steps():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        await go_to(pilot, ResourcesStep)
        await type_into(pilot, "#nodes", "1")
        world = text_of(app.screen, "#world")
        assert "WORLD_SIZE = 1 node × 2 per node = 2 processes" in world, world
        await type_into(pilot, "#gpus-per-node", "1")
        assert "= 1 process" in text_of(app.screen, "#world")
        await pilot.press("escape")  # Back
        await until(pilot, lambda: on_screen(app, LaunchStep), "the launch step")
        why = " ".join(str(app.screen.query_one(WhyPanel).render()).split())
        assert "starts 1 process on its one node" in why, why
        assert "= 1 training process." in why
        for wrong in ("1 nodes", "1 processes", "the 1 nodes", "1 workers"):
            assert wrong not in why, wrong


ONE_LINE = "print('the only line', flush=True)\n"


async def test_a_log_of_one_line_says_1_line(backend: LocalBackend, tmp_path: Path):
    (tmp_path / "one.py").write_text(ONE_LINE)
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=1, code=str(tmp_path), script="one.py")
    job = backend.submit(local_plan(spec))
    backend.wait(job, timeout=60)
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        app.show_job(backend, job)
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        screen = app.screen
        await until(pilot, lambda: " 1 line" in text_of(screen, "#job-status"), "the line count")
        assert "1 lines" not in text_of(screen, "#job-status")


async def test_help_lists_no_key_a_terminal_never_sends():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await go_to(pilot, CodeStep)  # an Input has the focus: its copy key is ctrl+c, super+c
        await pilot.press("f1")
        await until(pilot, lambda: on_screen(app, HelpScreen), "help")
        keys = app.screen.query_one(Markdown).source
        assert "super+" not in keys
        assert "| `^v` | Paste" in keys  # the Input's own keys are still listed


class Jobs:
    """Stands in for the Azure ML backend's job list (what attach asks it for)."""

    def __init__(self, jobs: RecentJobs) -> None:
        self.jobs = jobs

    def recent_jobs(self) -> RecentJobs:
        return self.jobs


def one_job() -> RecentJobs:
    when = datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc)
    job = JobSummary(JobHandle("azureml", "job-1"), JobState.RUNNING, "Running", "", "", when)
    return RecentJobs([job])


@pytest.mark.parametrize(("jobs", "open_enabled"), [(RecentJobs(), False), (one_job(), True)])
async def test_attach_opens_only_when_there_is_a_job(jobs: RecentJobs, open_enabled: bool):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await app.push_screen(AttachScreen(Jobs(jobs)))
        screen = app.screen
        status = lambda: text_of(screen, "#attach-status")  # noqa: E731
        await until(pilot, lambda: "Asking" not in status(), "the answer")
        assert ("No jobs" in status()) is not open_enabled
        assert screen.query_one("#ok", Button).disabled is not open_enabled
        await pilot.press("enter")  # Enter on an empty list opens nothing
        assert (app.screen is screen) is not open_enabled
