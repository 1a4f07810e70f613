"""The jobs list (issue 26, item 5) on real local jobs: reached from the first screen with the key
its footer shows, every job with its state, age, nodes × GPUs and, for a failed one, the doctor's
cause; Enter opens the job screen, `d` the doctor, `c` cancels after asking, `/` filters, and the
list follows the jobs live. Real launchers and processes, no mocks."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from screens.doctor import DoctorScreen
from screens.job import JobScreen
from screens.job_dialogs import ConfirmScreen
from screens.jobs import JobsScreen, JobsTable
from tests.backends import conftest as backends
from tests.backends.conftest import SCRIPTS, local_plan
from tests.ui.waits import on_screen, until
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

from .conftest import make_app

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

BROKEN = """
import os, time
rank = int(os.environ["RANK"])
print(f"rank {rank} started", flush=True)
time.sleep(0.3)
if rank == 1:
    import a_module_that_is_not_installed
print(f"rank {rank} done", flush=True)
"""


def spec(code: Path | str, script: str, *args: str, nodes: int = 2) -> JobSpec:
    return JobSpec(sku=None, nodes=nodes, gpus_per_node=2, code=str(code), script=script, args=args)


def cells(screen: JobsScreen) -> dict[str, list[str]]:
    """Each shown job's cells as text, by job name."""
    table = screen.query_one(JobsTable)
    out = {}
    for index in range(table.row_count):
        row = [str(cell) for cell in table.get_row_at(index)]
        out[row[1]] = row
    return out


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def open_jobs(pilot) -> JobsScreen:
    await pilot.pause()
    await pilot.press("o")  # the key the first screen's footer shows
    await until(pilot, lambda: on_screen(pilot.app, JobsScreen), "the jobs list")
    return pilot.app.screen


async def test_the_jobs_list_shows_each_job_and_the_doctors_cause_then_opens_and_filters(
    backend: LocalBackend, tmp_path: Path
):
    (tmp_path / "broken.py").write_text(BROKEN)
    failed = backend.submit(local_plan(spec(tmp_path, "broken.py")))
    done = backend.submit(local_plan(spec(SCRIPTS, "ranks.py", "--seconds", "0.2", nodes=1)))
    backend.wait(failed, timeout=60)
    backend.wait(done, timeout=60)
    app = make_app(backends={"local": lambda: backend})
    async with app.run_test(size=(160, 30)) as pilot:  # the cause whole; narrower it ends in …
        footer_keys = [b.binding.key for b in app.screen.active_bindings.values() if b.binding.show]
        assert "o" in footer_keys
        screen = await open_jobs(pilot)
        cause = "rank 1: a module could not be imported"
        await until(
            pilot, lambda: cells(screen).get(failed.name, [""] * 7)[-1] == cause, "the cause"
        )
        rows = cells(screen)
        assert rows[failed.name][:3] == ["here", failed.name, "Failed"]
        assert rows[failed.name][9] == "2 × 2"  # after script, progress, ETA, cost, to finish
        assert rows[done.name][2:3] == ["Completed"] and rows[done.name][9] == "1 × 2"
        assert rows[done.name][3].endswith("s")  # its age: seconds
        assert "2 jobs here" in text_of(screen, "#jobs-status")

        await pilot.press("slash", *"import")  # narrows as it is typed
        assert list(cells(screen)) == [failed.name]
        await pilot.press("enter", "d")
        await until(pilot, lambda: on_screen(app, DoctorScreen), "the doctor")
        doctor = app.screen
        await until(pilot, lambda: "Fix:" in text_of(doctor, "#doctor-text"), "its answer")
        shown = text_of(doctor, "#doctor-text")
        assert "Rank 1 failed first: a module could not be imported (import_error)." in shown
        assert "a_module_that_is_not_installed" in shown
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("escape")  # drops the filter
        assert set(cells(screen)) == {failed.name, done.name}

        table = screen.query_one(JobsTable)
        table.move_cursor(row=list(cells(screen)).index(done.name))
        await pilot.press("enter")
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        assert app.screen.handle == done
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the list")
        await pilot.press("escape")  # back to where it was opened from
        assert not isinstance(app.screen, JobsScreen)


async def test_cancel_asks_first_and_the_list_follows_the_job_live(backend: LocalBackend):
    app = make_app(backends={"local": lambda: backend})
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_jobs(pilot)
        await until(pilot, lambda: "No jobs yet" in text_of(screen, "#jobs-note"), "empty")
        job = backend.submit(local_plan(spec(SCRIPTS, "ranks.py", "--seconds", "60")))
        running = lambda: cells(screen).get(job.name, [""] * 3)[2] == "Running"  # noqa: E731
        await until(pilot, running, "the new job, running")  # no key pressed: it refreshed

        await pilot.press("c")
        await until(pilot, lambda: on_screen(app, ConfirmScreen), "the question")
        await pilot.press("n")
        assert app.screen is screen and backend.status(job).state is JobState.RUNNING
        await pilot.press("c")
        await until(pilot, lambda: on_screen(app, ConfirmScreen), "the question again")
        await pilot.press("y")
        await until(
            pilot, lambda: cells(screen).get(job.name, [""] * 3)[2] == "Canceled", "Canceled"
        )
        assert backend.status(job).state is JobState.CANCELED


async def test_the_jobs_list_is_in_the_command_palette(backend: LocalBackend):
    from tests.ui.palette import run_from_palette

    app = make_app(backends={"local": lambda: backend})
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await run_from_palette(pilot, "jobs", "Jobs")
        await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
