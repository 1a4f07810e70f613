"""The rank strip on a real local 2 × 2 job: the rank that stops printing is flagged while the
others go on, Enter opens its log, and a failed job shows the doctor's diagnosis."""

from __future__ import annotations

import statistics
import textwrap
from pathlib import Path

import pytest

from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.core.spec import JobSpec
from tui.logs.follower import Timing
from widgets.rank_strip import RankStrip

from .conftest import make_app
from .waits import until

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

# Every rank prints a line every 0.3 s; rank 3 goes silent after 4 s (a pace of its own by then)
# and stays alive (a hang that prints nothing); with --fail, rank 1 raises instead.
STALLS = textwrap.dedent(
    """
    import os, sys, time
    rank = int(os.environ["RANK"])
    start = time.monotonic()
    for step in range(10_000):
        if "--fail" in sys.argv and rank == 1 and step == 3:
            raise ValueError("labels has 10 classes, the model 12")
        if rank != 3 or time.monotonic() - start < 4:
            print(f"rank {rank} step {step}", flush=True)
        time.sleep(0.3)
    """
)


def job(backend, tmp_path: Path, *args: str, script: str = STALLS):
    code = tmp_path / "code"
    code.mkdir(exist_ok=True)
    (code / "stalls.py").write_text(script)
    spec = JobSpec(
        framework="pytorch",
        launch="per_process",
        nodes=2,
        gpus_per_node=2,
        sku=None,
        code=str(code),
        script="stalls.py",
        args=args,
    )
    return backend.submit(local_plan(spec))


async def open_job(pilot, backend, handle) -> JobScreen:
    timing = Timing(min_interval=0.1, max_interval=0.3)
    screen = JobScreen(backend, handle, status_interval=0.25, timing=timing)
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def test_a_rank_that_stops_printing_is_flagged_and_enter_opens_its_log(backend, tmp_path):
    handle = job(backend, tmp_path)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_job(pilot, backend, handle)
        strip = screen.query_one(RankStrip)
        await until(pilot, lambda: strip.suspects == (3,), "rank 3 flagged alone")
        watch = screen.ranks.watch
        rank3 = watch.ranks[3]
        # Flagged once silent for twice its own usual gap (never sooner), here ~0.6 s.
        own = watch.own_threshold(rank3)
        assert rank3.silent_for > own == max(2 * statistics.median(rank3.gaps), 0.5)
        assert own < 2.0
        assert "straggler / hang suspect: rank 3" in str(strip.render())
        strip.focus()
        strip.select(3)
        await pilot.press("enter")
        await until(
            pilot,
            lambda: screen.log_name == "user_logs/std_log_process_3.txt",
            "Enter opened rank 3's log",
        )
        backend.cancel(handle)


async def test_a_failed_job_shows_the_doctor_s_diagnosis(backend, tmp_path):
    handle = job(backend, tmp_path, "--fail")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_job(pilot, backend, handle)
        await until(pilot, lambda: screen.ranks.diagnosis is not None, "a diagnosis")
        d = screen.ranks.diagnosis
        assert (d.rank, d.cause) == (1, "user_code_error")
        shown = str(screen.query_one("#job-doctor").render())
        assert "rank 1 failed first" in shown and "ValueError: labels has 10 classes" in shown


# Every rank prints a step line 10 times a second, rank 3 only 5 times: it is alive and its log
# grows (no hang), but it holds every collective back.
SPEEDS = textwrap.dedent(
    """
    import os, time
    rank = int(os.environ["RANK"])
    every = 0.2 if rank == 3 else 0.1
    for step in range(100_000):
        print(f"step {step} loss {1 / (step + 1):.4f}", flush=True)
        time.sleep(every)
    """
)


async def test_a_rank_20_percent_slower_than_the_median_is_marked_a_straggler(backend, tmp_path):
    handle = job(backend, tmp_path, script=SPEEDS)
    async with make_app().run_test(size=(120, 40)) as pilot:
        timing = Timing(min_interval=0.1, max_interval=0.3)
        screen = JobScreen(backend, handle, status_interval=0.25, timing=timing)
        screen.metrics.ranks_every = 1.0
        await pilot.app.push_screen(screen)
        strip = screen.query_one(RankStrip)
        await until(pilot, lambda: strip.stragglers == (3,), "rank 3 marked slow alone")
        shown = str(strip.render())
        assert "slow (20 %+ under the median speed): rank 3" in shown
        assert "▼" in shown and strip.suspects == ()  # slow, not hung
        strip.select(3)
        detail = str(strip.render())
        assert "rank 3" in detail and "steps/s" in detail and "straggler" in detail
        strip.select(0)
        detail = str(strip.render())
        assert "steps/s" in detail and "straggler:" not in detail
        backend.cancel(handle)
