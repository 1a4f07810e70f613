"""The job screen's cost line: what the job's nodes have cost since it started, and what they
will cost until the training's ETA, at the price the job was submitted with; and what a stall
has cost.

A real local job prints `iteration i/1000` lines as it trains, so the screen has a clock and an
ETA; the price is injected as the app injects it for a job submitted to Azure ML.
"""

from __future__ import annotations

import re
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tests.ui.waits import until
from tui.backends.local import LocalBackend
from tui.core.prices import PlanPrice, vm_price
from tui.core.spec import JobSpec
from tui.logs import progress
from tui.logs.follower import Timing

from .conftest import make_app

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

TRAIN = """
import time
for i in range(0, 1000, 10):
    print(f"iteration {i}/1000 | lm loss: 2.5 |", flush=True)
    time.sleep(0.1)
"""


def _status(screen: JobScreen) -> str:
    return str(screen.query_one("#job-status").render())


PRICE = PlanPrice("Standard_ND96asr_v4", 2, vm_price("Standard_ND96asr_v4"))


@asynccontextmanager
async def _watching(backend: LocalBackend, folder: Path, train: str):
    """A real local job running `train`, its job screen open with the plan's price."""
    (folder / "train.py").write_text(train)
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=1, code=str(folder), script="train.py")
    job = backend.submit(local_plan(spec))
    try:
        async with make_app().run_test(size=(160, 30)) as pilot:
            screen = JobScreen(
                backend, job, status_interval=0.2, timing=Timing(0.1, 0.3), price=PRICE
            )
            await pilot.app.push_screen(screen)
            yield pilot, screen
    finally:
        backend.cancel(job)


async def test_cost_so_far_and_to_finish_follow_the_clock_and_the_eta(
    backend: LocalBackend, tmp_path: Path
):
    async with _watching(backend, tmp_path, TRAIN) as (pilot, screen):
        await until(pilot, lambda: "to finish" in _status(screen), "an ETA", ceiling=60)
        line = next(x for x in _status(screen).splitlines() if x.startswith("cost"))
        so_far, to_go = (float(x) for x in re.findall(r"≈ \$([\d,.]+)", line))
        assert 0 <= so_far < 1  # seconds at $54.39/h
        assert 0 < to_go < 54.39 / 3600 * 120  # under two minutes of training left
        assert line.endswith(
            "($54.39/h dedicated; Azure retail prices, eastus, 2026-11-09 snapshot)"
        )


STALLING = """
import time
for i in range(10):
    print(f"iteration {i}/1000 | lm loss: 2.5 |", flush=True)
    time.sleep(0.05)
time.sleep(120)
"""


async def test_a_step_standing_still_is_said_with_its_cost_and_the_stack_key(
    backend: LocalBackend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The stall alarm (issue 39): a running job whose step stands still longer than its log's
    rhythm allows says so, with what its nodes cost meanwhile at the price per hour the review
    shows, and the key that shows every rank's stack. The two-minute floor and the ten minutes
    for steps read in one go are lowered here (tests/logs/test_progress_stall.py tests them)."""
    monkeypatch.setattr(progress, "STALL_FLOOR", 2.0)
    monkeypatch.setattr(progress, "STALL_UNTIMED", 2.0)  # its ten steps may arrive in one read
    async with _watching(backend, tmp_path, STALLING) as (pilot, screen):
        await until(pilot, lambda: "no step for 0:0" in _status(screen), "a stall", ceiling=60)
        assert screen.metrics.tracker.standing().step == 9  # it stands on its tenth step
        line = next(x for x in _status(screen).splitlines() if x.startswith("no step for"))
        minutes, seconds = map(int, re.search(r"no step for (\d+):(\d\d)", line).groups())
        cost = float(re.search(r"≈ \$([\d.]+) since", line).group(1))
        still = minutes * 60 + seconds
        assert PRICE.dedicated is not None
        assert abs(cost - PRICE.dedicated * still / 3600) <= 0.01 + PRICE.dedicated / 3600
        assert line.endswith("S: every rank's stack")
        assert screen.status is not None and not screen.status.is_terminal


async def test_no_price_no_cost_line(backend: LocalBackend, tmp_path: Path):
    (tmp_path / "train.py").write_text("print('hello')\n")
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=1, code=str(tmp_path), script="train.py")
    job = backend.submit(local_plan(spec))
    async with make_app().run_test(size=(160, 30)) as pilot:
        screen = JobScreen(backend, job, status_interval=0.2, timing=Timing(0.1, 0.3))
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: screen.status is not None and screen.status.is_terminal, "end")
        assert "cost" not in _status(screen)
