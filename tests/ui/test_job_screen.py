"""The job screen on real local jobs: what a user sees while a job runs, fails or is canceled.

Real launchers and processes (the local backend in a temporary job root), no mocks. Status and
log polls run every 0.1–0.3 s here, so `pilot.press` stays fast (Textual reference §2.6).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from screens.job import JobScreen
from screens.job_dialogs import ConfirmScreen, LogPicker
from tests.backends import conftest as backends
from tests.backends.conftest import SAMPLES, SCRIPTS, local_plan, require, running, started_pids
from tests.ui.waits import on_screen, until
from tui.backends.base import JobHandle, JobState
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.logs.follower import Timing
from widgets.log_store import ERROR_BODY, ERROR_START
from widgets.log_view import LogView
from widgets.rank_strip import RankStrip

from .conftest import make_app

pytestmark = pytest.mark.slow

# Fixtures shared with the backend tests: a job root (and DTRAIN_TUI_HOME) per test, a
# backend in it, and whatever a test leaves running is killed after it.
job_root = backends.job_root
backend = backends.backend

FAST = Timing(min_interval=0.1, max_interval=0.3)

# Controlled output: numbered lines with a needle near each end, an ERROR line, a printed
# traceback; `--fail-rank R` makes rank R raise (a real traceback) and exit 1.
NOISY = """
import argparse, os, sys, time
p = argparse.ArgumentParser()
p.add_argument("--lines", type=int, default=400)
p.add_argument("--fail-rank", type=int, default=-1)
p.add_argument("--hold", type=float, default=0.0)
args = p.parse_args()
rank = int(os.environ["RANK"])
for i in range(args.lines):
    if i == 20:
        print(f"rank {rank} needle early")
    if i == 50:
        print("ERROR: disk quota almost used up")
    if i == 200:
        print("Traceback (most recent call last):")
        print('  File "train.py", line 7, in <module>')
        print("    step()")
        print("ValueError: a printed traceback")
    if i == args.lines - 20:
        print(f"rank {rank} needle late")
    print(f"rank {rank} step {i} loss {1 / (i + 1):.4f}")
sys.stdout.flush()
if rank == args.fail_rank:
    time.sleep(0.3)
    raise RuntimeError(f"rank {rank} broke")
time.sleep(args.hold)
"""


def spec(code: Path | str, script: str, *args: str) -> JobSpec:
    return JobSpec(
        sku=None,
        nodes=2,
        gpus_per_node=2,
        code=str(code),
        script=script,
        args=args,
        env={"OMP_NUM_THREADS": "1"},
    )


def submit(backend: LocalBackend, s: JobSpec) -> JobHandle:
    return backend.submit(local_plan(s))


@pytest.fixture
def noisy(tmp_path: Path) -> Path:
    code = tmp_path / "noisy-code"
    code.mkdir()
    (code / "noisy.py").write_text(NOISY)
    return code


async def open_job(pilot, backend: LocalBackend, job: JobHandle, **kwargs) -> JobScreen:
    screen = JobScreen(backend, job, status_interval=0.2, timing=FAST, **kwargs)
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


def ended(screen: JobScreen) -> bool:
    return screen.status is not None and screen.status.is_terminal


def finished_reading(screen: JobScreen) -> bool:
    return (
        ended(screen)
        and screen.follower is not None
        and screen.follower.state.phase
        in (
            "finished",
            "failed",
        )
    )


def visible(screen: JobScreen) -> list[str]:
    return screen.query_one(LogView).visible_lines()


def status_text(screen: JobScreen) -> str:
    return str(screen.query_one("#job-status").render())


async def test_rank_0_of_a_ddp_job_streams_live(backend: LocalBackend):
    require("torch")
    # ~1 s per epoch on 2 CPUs, so its lines arrive while it runs (it is canceled after two).
    job = submit(backend, spec(SAMPLES, "train_ddp.py", "--epochs", "6", "--samples", "12000"))
    try:
        async with make_app().run_test(size=(120, 30)) as pilot:
            screen = await open_job(pilot, backend, job)
            view = screen.query_one(LogView)
            assert screen.log_name == "user_logs/std_log_process_0.txt"
            seen = lambda text: any(text in line for line in visible(screen))  # noqa: E731
            await until(pilot, lambda: view.line_count > 0, "rank 0's first line", ceiling=90)
            assert not ended(screen), "lines should arrive while the job runs"
            await until(pilot, lambda: seen("epoch 0 loss"), "rank 0's first epoch", ceiling=60)
            assert not ended(screen)
            assert seen("world size 4, backend gloo")
            assert view.follow and visible(screen)[-1] == view.store.line(view.line_count - 1)
            await until(pilot, lambda: seen("epoch 1 loss"), "the next epoch", ceiling=60)
            status = status_text(screen)
            assert f"local · {job.name} · " in status and "rank 0 · " in status
            assert " lines · data " in status and "FOLLOW" in status
    finally:
        backend.cancel(job)


async def test_rank_switching_with_brackets_and_the_picker(backend: LocalBackend):
    job = submit(backend, spec(SCRIPTS, "ranks.py", "--seconds", "0.5"))
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job)
        view = screen.query_one(LogView)
        await until(pilot, lambda: finished_reading(screen), "the job ends")
        assert screen.status.state is JobState.COMPLETED
        assert visible(screen)[-1] == "rank 0 done"  # following: the last line at the bottom
        assert "Completed after 0:0" in str(screen.query_one("#job-outcome").render())

        await pilot.press("right_square_bracket")
        await until(pilot, lambda: finished_reading(screen) and view.line_count > 0, "rank 1")
        assert screen.log_name == "user_logs/std_log_process_1.txt"
        assert visible(screen)[-1] == "rank 1 done"
        assert not any(line.startswith("rank 0 ") for line in visible(screen))

        await pilot.press("l")
        assert isinstance(pilot.app.screen, LogPicker)
        await pilot.press("down", "down", "enter")  # from rank 1 to rank 3
        await until(pilot, lambda: visible(screen)[-1:] == ["rank 3 done"], "rank 3 is shown")
        assert screen.log_name == "user_logs/std_log_process_3.txt"
        assert "rank 3 · " in status_text(screen)
        await pilot.press("right_square_bracket")  # wraps around to rank 0
        assert screen.log_name == "user_logs/std_log_process_0.txt"
        await pilot.press("left_square_bracket")
        assert screen.log_name == "user_logs/std_log_process_3.txt"


async def test_search_filter_and_errors_reach_lines_outside_the_window(
    backend: LocalBackend, noisy: Path
):
    job = submit(backend, spec(noisy, "noisy.py"))
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job, window=50)
        view = screen.query_one(LogView)
        await until(pilot, lambda: finished_reading(screen), "rank 0's log is read")
        assert view.line_count == 400 + 2 + 1 + 4
        assert view.store.first_in_memory > 100  # the early lines are only in the spool

        # A search starts from the top of the view (here the end: the late needle is on screen
        # once the rows above the log, the rank strip's, are laid out).
        strip = screen.query_one(RankStrip)
        await until(pilot, lambda: strip.has_class("-shown"), "the rank strip")
        await pilot.pause()
        assert "rank 0 needle late" in visible(screen)
        await pilot.press("slash", *"needle", "enter")
        assert (view.match_count, view.match_number) == (2, 2)
        assert "rank 0 needle late" in visible(screen) and not view.follow
        assert "/needle 2/2" in status_text(screen)
        await pilot.press("n")  # wraps around to the first, long gone from memory
        assert view.match_number == 1 and "rank 0 needle early" in visible(screen)
        await pilot.press("N")
        assert view.match_number == 2 and "rank 0 needle late" in visible(screen)
        await pilot.press("slash", *"NEEDLE", "enter")  # a capital letter: case-sensitive
        assert view.search_query == "NEEDLE", (view.search_query, screen.query_one("#query").value)
        assert view.match_count == 0
        await pilot.press("slash", *"Needle", "enter")
        assert view.match_count == 0
        await pilot.press("slash", *"needle", "enter")

        await pilot.press("ampersand", *"needle", "enter")
        assert view.shown_count == 2
        assert visible(screen) == ["rank 0 needle early", "rank 0 needle late"]
        await pilot.press("escape")  # drops the filter
        assert view.filter_query is None and view.shown_count == view.line_count
        await pilot.press("escape")  # then the search
        assert view.search_query is None

        await pilot.press("e")
        error = view.store.error_starts[0]
        assert view.store.line(error) == "ERROR: disk quota almost used up"
        assert view.top_line <= error < view.top_line + 27
        await pilot.press("e")
        start = view.store.error_starts[1]
        assert view.store.line(start) == "Traceback (most recent call last):"
        kinds = [view.store.error_kind(start + i) for i in range(5)]
        assert kinds == [ERROR_START, ERROR_BODY, ERROR_BODY, ERROR_BODY, 0]
        assert "Traceback (most recent call last):" in visible(screen)
        await pilot.press("E")
        assert view.error_number == 1
        assert "2 errors" in status_text(screen)


async def test_follow_pauses_on_scroll_up_and_end_resumes(backend: LocalBackend):
    job = submit(backend, spec(SCRIPTS, "ranks.py", "--seconds", "30"))
    try:
        async with make_app().run_test(size=(100, 20)) as pilot:
            screen = await open_job(pilot, backend, job)
            view = screen.query_one(LogView)
            await until(pilot, lambda: view.line_count > 25, "the log overflows the view")
            assert view.follow and visible(screen)[-1] == view.store.line(view.line_count - 1)

            await pilot.press("up")
            assert not view.follow
            top, count = view.top_line, view.line_count
            await until(pilot, lambda: view.line_count >= count + 3, "more lines arrive")
            assert view.top_line == top and not view.follow  # it stayed where the user went
            assert "PAUSED" in status_text(screen)

            await pilot.press("end")
            assert view.follow
            newest = lambda: visible(screen)[-1] == view.store.line(view.line_count - 1)  # noqa: E731
            await until(pilot, newest, "the view shows the newest line again")
            await pilot.press("f")
            assert not view.follow
            await pilot.press("f")
            assert view.follow and "FOLLOW" in status_text(screen)
    finally:
        backend.cancel(job)


async def test_cancel_asks_then_stops_every_process(backend: LocalBackend):
    job = submit(backend, spec(SCRIPTS, "ranks.py", "--seconds", "60"))
    procs = started_pids(Path(job.location), 4)
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job)
        await until(pilot, lambda: screen.status is not None, "the first status")
        await pilot.press("c")
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("n")
        assert pilot.app.screen is screen
        assert backend.status(job).state is JobState.RUNNING

        await pilot.press("c")
        await pilot.press("y")
        await until(pilot, lambda: ended(screen), "the job is canceled", ceiling=30)
        assert screen.status.state is JobState.CANCELED
        assert "Canceled" in str(screen.query_one("#job-outcome").render())
        assert not [p.pid for p in procs.values() if running(p)]
        await pilot.press("c")  # a job that ended is not asked about again
        assert pilot.app.screen is screen


async def test_a_failure_shows_the_failing_ranks_log_at_its_first_error(
    backend: LocalBackend, noisy: Path
):
    job = submit(
        backend, spec(noisy, "noisy.py", "--lines", "60", "--fail-rank", "1", "--hold", "30")
    )
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job)
        view = screen.query_one(LogView)
        await until(pilot, lambda: finished_reading(screen), "the job fails", ceiling=60)
        assert screen.status.state is JobState.FAILED and screen.status.failed_rank == 1
        assert screen.log_name == "user_logs/std_log_process_1.txt"
        first = "ERROR: disk quota almost used up"
        await until(pilot, lambda: first in visible(screen), "the first error is on screen")
        assert view.error_number == 1 and not view.follow
        raised = [view.store.line(n) for n in view.store.error_starts]
        assert raised[-1] == "Traceback (most recent call last):"  # the real one, at the end
        outcome = str(screen.query_one("#job-outcome").render())
        assert "Failed: rank 1 exited with code 1" in outcome and "showing rank 1" in outcome

        # Asked for rank 0 by name (`dtrain-tui logs NAME --rank 0`): it stays, and says where.
        pinned = await open_job(pilot, backend, job, log="user_logs/std_log_process_0.txt")
        await until(pilot, lambda: finished_reading(pinned), "rank 0's log is read")
        assert pinned.log_name == "user_logs/std_log_process_0.txt"
        assert "its log: rank 1" in str(pinned.query_one("#job-outcome").render())


async def test_save_writes_the_whole_log_and_leaving_deletes_the_spool(
    backend: LocalBackend, tmp_path: Path
):
    job = submit(backend, spec(SCRIPTS, "ranks.py", "--seconds", "0.5"))
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job, window=5)
        view = screen.query_one(LogView)
        await until(pilot, lambda: finished_reading(screen), "the log is read")
        spool = view.store.path
        assert spool.is_file()

        await pilot.press("s")
        await until(pilot, lambda: screen.saved_path is not None, "the log is saved")
        saved = screen.saved_path
        assert saved.parent == tmp_path  # the working directory
        assert saved.read_text() == (Path(job.location) / screen.log_name).read_text()
        assert f"saved {saved.name}" in status_text(screen)

        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, JobScreen)
        assert not spool.exists()


async def test_submit_opens_the_job_screen_on_rank_0(job_root: Path):
    app = make_app(
        spec=spec(SCRIPTS, "ranks.py", "--seconds", "0.5"),
        backends={"local": lambda: LocalBackend(job_root, gpus=[], grace=2.0)},
    )
    async with app.run_test(size=(120, 30)) as pilot:
        app.submit("local")
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen opens")
        screen = app.screen
        await until(pilot, lambda: finished_reading(screen), "the job ends", ceiling=60)
        assert screen.status.state is JobState.COMPLETED
        assert "rank 0 done" in visible(screen)
