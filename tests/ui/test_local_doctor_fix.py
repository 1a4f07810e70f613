"""The doctor's fix on a job that ran on this machine (issue 26, item 12): a script error's fix
says to fix the script, not to "rehearse with submit --target local" (it was a rehearsal). Seen
where a user reads it: the job screen's doctor block and the jobs list's `d`. A real local job."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from screens.doctor import DoctorScreen
from screens.job import JobScreen
from screens.jobs import JobsScreen
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tests.ui.waits import on_screen, until
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

from .conftest import make_app

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

RAISES = """
import os
print(f"rank {os.environ['RANK']} started", flush=True)
if os.environ["RANK"] == "1":
    raise ValueError("bad batch")
"""


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_a_local_jobs_fix_does_not_say_rehearse_locally(backend: LocalBackend, tmp_path):
    (tmp_path / "raises.py").write_text(RAISES)
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(tmp_path), script="raises.py")
    job = backend.submit(local_plan(spec))
    backend.wait(job, timeout=60)
    app = make_app(backends={"local": lambda: backend})
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
        await pilot.press("d")
        await until(pilot, lambda: on_screen(app, DoctorScreen), "the doctor")
        doctor = app.screen
        await until(pilot, lambda: "Fix:" in text_of(doctor, "#doctor-text"), "its answer")
        answer = text_of(doctor, "#doctor-text")
        assert "user_code_error" in answer and "Fix the script" in answer
        assert "--target local" not in answer and "rehearse" not in answer

        await pilot.press("escape", "enter")
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        screen = app.screen
        await until(pilot, lambda: "Fix:" in text_of(screen, "#job-doctor"), "the doctor block")
        block = text_of(screen, "#job-doctor")
        assert "Fix the script" in block
        assert "--target local" not in block and "rehearse" not in block
