"""The screens issue 26 touched, at 80×24 and 120×36: Back, Help and Quit in every footer, the
"Why: F1" hint where the Why panel does not fit, the jobs list and the job screen (SVG baselines
in __snapshots__)."""

from __future__ import annotations

import pytest

from screens.job import JobScreen
from screens.jobs import JobsScreen
from tui.logs.follower import Timing
from widgets.log_view import LogView

from .conftest import make_app
from .test_keys_where_expected import finished

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])


def steps(count: int):
    async def run_before(pilot) -> None:
        await pilot.pause()
        for _ in range(count):
            await pilot.press("ctrl+n")
            await pilot.pause()

    return run_before


@SIZES
@pytest.mark.parametrize("step", [0, 4], ids=["framework", "review"])
def test_wizard_footer(snap_compare, size, step):
    assert snap_compare(make_app(), run_before=steps(step), terminal_size=size)


@SIZES
def test_jobs_list_empty(snap_compare, size, job_root_empty):
    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.action_jobs()
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, JobsScreen)
        while "No jobs yet" not in str(screen.query_one("#jobs-note").render()):
            await pilot.pause(0.05)

    app = make_app(backends={"local": job_root_empty})
    assert snap_compare(app, run_before=run_before, terminal_size=size)


@SIZES
def test_job_screen_of_an_ended_job(snap_compare, size, tmp_path):
    backend, job = finished(tmp_path)

    async def run_before(pilot) -> None:
        await pilot.pause()
        screen = JobScreen(backend, job, status_interval=0.2, timing=Timing(min_interval=0.1))
        await pilot.app.push_screen(screen)
        view = screen.query_one(LogView)
        while not (screen.follower and screen.follower.state.phase == "finished"):
            await pilot.pause(0.05)
        while view.line_count < 600:
            await pilot.pause(0.05)
        await pilot.pause(0.3)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)


@pytest.fixture
def job_root_empty(tmp_path):
    from tui.backends.local import LocalBackend

    root = tmp_path / "jobs"
    return lambda: LocalBackend(root, gpus=[])
