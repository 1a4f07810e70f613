"""ctrl+q with a job the wizard submitted still running asks first: keep it (the default),
cancel it, or stay. A job is not a view; quitting must not end it unless asked."""

from __future__ import annotations

from pathlib import Path

from screens.dialogs import QuitScreen
from screens.job import JobScreen
from tests.ui.waits import on_screen
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

from .conftest import make_app
from .waits import until

SCRIPTS = Path(__file__).resolve().parents[1] / "backends" / "scripts"


async def _running_app(tmp_path: Path):
    backend = LocalBackend(tmp_path / "jobs", gpus=[], grace=1.0)
    spec = JobSpec(
        nodes=1, gpus_per_node=2, sku=None, code=str(SCRIPTS), script="ranks.py",
        args=("--seconds", "120"),
    )  # fmt: skip
    return make_app(spec=spec, backends={"local": lambda: backend}), backend


async def _submit_and_quit(pilot, app):
    """Submit the app's job here, wait for its screen, press ctrl+q; the job's handle."""
    app.submit("local")
    await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
    await pilot.press("ctrl+q")
    await until(pilot, lambda: on_screen(app, QuitScreen), "the quit question")
    return app.submitted[0][1]


async def test_quit_with_a_running_job_keeps_it_running_on_enter(tmp_path):
    app, backend = await _running_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        job = await _submit_and_quit(pilot, app)
        assert job.name in str(app.screen.query_one(".question").render())
        await pilot.press("enter")  # the highlighted button: Keep running
    try:
        assert Path(job.location, "keep.request").is_file()
        assert not backend.status(job).is_terminal
    finally:
        backend.cancel(job)


async def test_quit_can_cancel_the_job_or_stay(tmp_path):
    app, backend = await _running_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        job = await _submit_and_quit(pilot, app)
        await pilot.press("escape")  # stay
        await until(pilot, lambda: on_screen(app, JobScreen), "back on the job")
        assert not backend.status(job).is_terminal
        await pilot.press("ctrl+q")
        await until(pilot, lambda: on_screen(app, QuitScreen), "the quit question")
        await pilot.press("c")
        await until(pilot, lambda: not app.is_running, "the app to quit", 90)
    assert backend.status(job).state is JobState.CANCELED
