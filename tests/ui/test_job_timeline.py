"""Where a job's time went, on the screens (issue 41, item 2): the doctor's answer opened from
the jobs list (`d`) or the job screen (`t`) ends with the job's phases, each with how long it
took, as `dtrain-tui doctor` prints them. A real local job that fails, no mocks."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from screens.doctor import DoctorScreen
from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tests.ui.test_jobs_screen import BROKEN, open_jobs, spec
from tests.ui.waits import on_screen, until
from tui.backends.local import LocalBackend

from .conftest import make_app

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend


def doctor_text(app) -> str:
    return str(app.screen.query_one("#doctor-text", Static).render())


async def test_the_doctor_from_the_list_and_the_job_screen_says_where_the_time_went(
    backend: LocalBackend, tmp_path: Path, monkeypatch
):
    import screens.doctor

    reads = []
    read = screens.doctor.diagnosis

    async def counted(*args, **kwargs):
        reads.append(args[1].name)
        return await read(*args, **kwargs)

    monkeypatch.setattr(screens.doctor, "diagnosis", counted)
    (tmp_path / "broken.py").write_text(BROKEN)
    failed = backend.submit(local_plan(spec(tmp_path, "broken.py")))
    backend.wait(failed, timeout=60)
    app = make_app(backends={"local": lambda: backend})
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_jobs(pilot)
        await until(pilot, lambda: screen.query_one("JobsTable").row_count == 1, "the job")
        await pilot.press("d")
        await until(pilot, lambda: on_screen(app, DoctorScreen), "the doctor")
        await until(pilot, lambda: "Where its time went" in doctor_text(app), "the phases")
        shown = doctor_text(app)
        phases = shown.split("Where its time went", 1)[1]
        assert phases.index("starting its processes here") < phases.index("running")
        assert "in all" in phases
        assert "Rank 1 failed first" in shown  # the answer stays above them
        await pilot.press("escape")
        before = len(reads)
        await pilot.press("d")  # again: the ended job's answer and phases, kept, not read again
        await until(pilot, lambda: on_screen(app, DoctorScreen), "the doctor again")
        await pilot.pause(0.2)
        assert "Where its time went" in doctor_text(app)
        assert len(reads) == before  # its logs were not read again
        await pilot.press("escape")

        await pilot.press("enter")
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        await pilot.press("t")
        await until(pilot, lambda: on_screen(app, DoctorScreen), "the doctor, from the job")
        await until(pilot, lambda: "Where its time went" in doctor_text(app), "its phases")
        assert "in all" in doctor_text(app)
        await pilot.press("escape")
        assert on_screen(app, JobScreen)
