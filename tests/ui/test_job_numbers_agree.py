"""The job screen's numbers agree at one moment (issue 40, item 15): the chart's header and the
rank strip give the log on display one step, the status line and the strip give it one size,
the speed by rank shows a rate only where there is one (never `-/s`), and once the job has
ended no "s ago" stands frozen in the strip. Real local rehearsals: rank 0 prints steps and the
real GPU sampler writes its marked lines into rank 0's log (from a fake `nvidia-smi` printing a
real output, tests/injob/data/nvidia_smi/SOURCES.md), as on a GPU node; rank 1 prints one line.
"""

from __future__ import annotations

import re
import sys
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
from .test_job_screen import finished_reading
from .waits import until

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

SMI = Path(__file__).parents[1] / "injob" / "data" / "nvidia_smi"
FAKE_SMI = (
    f"#!{sys.executable}\n"
    "import os, sys\n"
    "sys.stdout.write(open(os.environ['FAKE_SMI_CSV']).read())\n"
)
LAST = 30
STEPS = textwrap.dedent(
    f"""
    import os, time
    if os.environ["RANK"] != "0":
        print("rank 1 ready", flush=True)
    else:
        for step in range(1, {LAST + 1}):
            print(f"step {{step}} loss {{1 / step:.4f}}", flush=True)
            time.sleep(0.15)
    """
)


@pytest.fixture
def job(backend, tmp_path: Path, monkeypatch):
    """A 1 × 2 rehearsal whose rank 0 prints `LAST` steps, 0.15 s apart, under a GPU sampler."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nvidia-smi").write_text(FAKE_SMI)
    (bin_dir / "nvidia-smi").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin")
    code = tmp_path / "code"
    code.mkdir()
    (code / "steps.py").write_text(STEPS)
    env = {"DTRAIN_GPU_SAMPLE": "0.2", "FAKE_SMI_CSV": str(SMI / "two_gpus.csv")}
    spec = JobSpec(framework="pytorch", launch="per_process", nodes=1, gpus_per_node=2,
                   sku=None, code=str(code), script="steps.py", env=env)  # fmt: skip
    handle = backend.submit(local_plan(spec))
    yield handle
    backend.cancel(handle)


async def open_job(pilot, backend, handle) -> JobScreen:
    screen = JobScreen(backend, handle, status_interval=0.25,
                       timing=Timing(min_interval=0.1, max_interval=0.3))  # fmt: skip
    # The ranks' own samples come seldom: the strip's step for the log on display must not
    # wait for one.
    screen.metrics.ranks_every = 3600
    await pilot.app.push_screen(screen)
    await pilot.pause()
    await pilot.press("m")
    return screen


def text(screen: JobScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


def chart_step(screen: JobScreen) -> int | None:
    """The step in the chart's header, or None before one."""
    found = re.search(r"step (\d[\d,]*)", text(screen, "#metrics-standing"))
    return int(found.group(1).replace(",", "")) if found else None


def strip_detail(screen: JobScreen, rank: int) -> str:
    """The strip's line about `rank` (it shows the selected rank's)."""
    strip = screen.query_one(RankStrip)
    strip.select(rank)
    return next(line for line in str(strip.render()).splitlines() if line.startswith("rank "))


def strip_step(screen: JobScreen, rank: int) -> int | None:
    found = re.search(r"· step (\d+)", strip_detail(screen, rank))
    return int(found.group(1)) if found else None


def sizes(screen: JobScreen) -> tuple[str, str]:
    """Rank 0's log size as the status line says it, and as the strip says it."""
    status = re.search(r"rank 0 · ([\d,.]+ [KMG]?B) ·", text(screen, "#job-status"))
    strip = re.search(r"· ([\d,.]+ [KMG]?B)", strip_detail(screen, 0))
    assert status and strip
    return status.group(1), strip.group(1)


def ended(screen: JobScreen) -> bool:
    """The job ended, its log was read to the end, and the strip had its last poll."""
    states = screen.query_one(RankStrip).states
    return finished_reading(screen) and bool(states) and all(s.state == "ended" for s in states)


async def test_the_chart_and_the_strip_give_the_shown_rank_one_step(backend, job):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_job(pilot, backend, job)
        await until(pilot, lambda: (chart_step(screen) or 0) >= 5, "a few steps in the chart")
        assert strip_step(screen, 0) == chart_step(screen)  # while it runs
        await until(pilot, lambda: ended(screen) and chart_step(screen) == LAST, "the end")
        assert strip_step(screen, 0) == chart_step(screen) == LAST


async def test_the_status_line_and_the_strip_give_the_shown_log_one_size(backend, job):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_job(pilot, backend, job)
        await until(pilot, lambda: ended(screen), "the end")
        # the sampler's lines are in rank 0's log
        await until(pilot, lambda: "GPUs 0 0 %" in text(screen, "#gpus"), "the GPU panel")
        status, strip = sizes(screen)
        assert strip == status


async def test_an_ended_job_shows_no_frozen_ago_and_no_rate_it_lacks(backend, job):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_job(pilot, backend, job)
        await until(pilot, lambda: ended(screen), "the end")
        for rank in (0, 1):
            detail = strip_detail(screen, rank)
            assert "ended" in detail and " ago" not in detail, detail
        await pilot.press("m", "m")  # shown again: the ranks' speeds are sampled
        await until(pilot, lambda: "speed by rank" in text(screen, "#metrics-ranks"), "speeds")
        speeds = text(screen, "#metrics-ranks")
        assert "rank 0 " in speeds and "-/s" not in speeds and "rank 1" not in speeds
