"""The job screen's cost line: what the job's nodes have cost since it started, and what they
will cost until the training's ETA, at the price the job was submitted with.

A real local job prints `iteration i/1000` lines as it trains, so the screen has a clock and an
ETA; the price is injected as the app injects it for a job submitted to Azure ML.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tests.ui.waits import until
from tui.backends.local import LocalBackend
from tui.core.prices import PlanPrice, vm_price
from tui.core.spec import JobSpec
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


async def test_cost_so_far_and_to_finish_follow_the_clock_and_the_eta(
    backend: LocalBackend, tmp_path: Path
):
    (tmp_path / "train.py").write_text(TRAIN)
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=1, code=str(tmp_path), script="train.py")
    job = backend.submit(local_plan(spec))
    price = PlanPrice("Standard_ND96asr_v4", 2, vm_price("Standard_ND96asr_v4"))
    try:
        async with make_app().run_test(size=(160, 30)) as pilot:
            screen = JobScreen(
                backend, job, status_interval=0.2, timing=Timing(0.1, 0.3), price=price
            )
            await pilot.app.push_screen(screen)
            await until(pilot, lambda: "to finish" in _status(screen), "an ETA", ceiling=60)
            line = next(x for x in _status(screen).splitlines() if x.startswith("cost"))
            so_far, to_go = (float(x) for x in re.findall(r"≈ \$([\d,.]+)", line))
            assert 0 <= so_far < 1  # seconds at $54.39/h
            assert 0 < to_go < 54.39 / 3600 * 120  # under two minutes of training left
            assert line.endswith(
                "($54.39/h dedicated; Azure retail prices, eastus, 2026-11-09 snapshot)"
            )
    finally:
        backend.cancel(job)


async def test_no_price_no_cost_line(backend: LocalBackend, tmp_path: Path):
    (tmp_path / "train.py").write_text("print('hello')\n")
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=1, code=str(tmp_path), script="train.py")
    job = backend.submit(local_plan(spec))
    async with make_app().run_test(size=(160, 30)) as pilot:
        screen = JobScreen(backend, job, status_interval=0.2, timing=Timing(0.1, 0.3))
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: screen.status is not None and screen.status.is_terminal, "end")
        assert "cost" not in _status(screen)
