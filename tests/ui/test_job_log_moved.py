"""The job screen says when a rank log's path was deleted or renamed over while the job writes on
(issue 28): the follower reads on from the file the job writes, and the status line says why the
file on disk no longer holds the lines shown.

A real local job: it writes half its lines, waits for a file the test creates after renaming a
decoy over the log, then writes the rest. No step depends on timing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from screens.job import JobScreen
from screens.job_status import path_line
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tests.ui.waits import on_screen, until
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.logs.follower import FollowerState, Timing
from widgets.log_view import LogView

from .conftest import make_app

job_root = backends.job_root
backend = backends.backend

FAST = Timing(min_interval=0.1, max_interval=0.3)
TWO_HALVES = """
import os, pathlib, sys, time
rank = os.environ["RANK"]
for i in range(300):
    print(f"rank {rank} line {i:04d}", flush=True)
go = pathlib.Path(sys.argv[1])
while not go.exists():
    time.sleep(0.02)
for i in range(300, 600):
    print(f"rank {rank} line {i:04d}", flush=True)
"""
NOTICE = "rank 1's log was replaced on disk; following the file the job writes"


@pytest.mark.slow
async def test_the_status_line_says_a_rank_log_was_replaced_on_disk(
    tmp_path: Path, backend: LocalBackend
):
    code = tmp_path / "code"
    code.mkdir()
    (code / "two_halves.py").write_text(TWO_HALVES)
    go = tmp_path / "go"
    spec = JobSpec(
        sku=None, nodes=1, gpus_per_node=2, code=str(code), script="two_halves.py", args=[str(go)]
    )
    job = backend.submit(local_plan(spec))
    name = "user_logs/std_log_process_1.txt"
    async with make_app().run_test(size=(160, 30)) as pilot:
        screen = JobScreen(backend, job, log=name, status_interval=0.2, timing=FAST)
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: on_screen(pilot.app, JobScreen), "the job screen")
        view = screen.query_one(LogView)
        await until(pilot, lambda: view.line_count == 300, "rank 1's first half")
        assert "on disk" not in status_text(screen)

        decoy = tmp_path / "decoy.txt"
        decoy.write_text("decoy\n" * 10)
        os.replace(decoy, Path(job.location) / name)  # the job still writes the file it opened
        go.touch()
        await until(pilot, lambda: finished_reading(screen), "the job ends and its log is read")

        assert screen.status.state is JobState.COMPLETED
        shown = [view.store.line(i) for i in range(view.line_count)]
        assert shown == [f"rank 1 line {i:04d}" for i in range(600)]
        assert status_text(screen).splitlines()[-1] == NOTICE


def test_a_deleted_path_and_a_log_that_is_not_a_rank_are_said_too():
    state = FollowerState("user_logs/std_log_process_3.txt")
    assert path_line("rank 3's log", state, None) is None  # nothing changed: no line
    state.notice = "user_logs/std_log_process_3.txt: the path was deleted; following …"
    assert path_line("rank 3's log", state, "deleted") == (
        "[$warning]rank 3's log was deleted on disk; following the file the job writes[/]"
    )
    assert path_line("system_logs/launcher.txt", state, "replaced") == (
        "[$warning]system_logs/launcher.txt was replaced on disk;"
        " following the file the job writes[/]"
    )


def finished_reading(screen: JobScreen) -> bool:
    status, follower = screen.status, screen.follower
    ended = status is not None and status.is_terminal
    return ended and follower is not None and follower.state.phase in ("finished", "failed")


def status_text(screen: JobScreen) -> str:
    return str(screen.query_one("#job-status").render())
