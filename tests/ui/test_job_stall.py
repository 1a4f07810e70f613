"""The stall alarm (issue 39 item 3): a running job whose step stands still longer than its
log's rhythm allows says so on the job screen, with what its nodes have cost meanwhile at the
plan's price per hour (the review's figure) and the key that shows every rank's stack.

A real local job prints ten steps and then sleeps; the two-minute floor and the ten minutes
for steps read in one go are lowered so that the test need not wait for them (the rule's own
numbers are tested in tests/logs/test_progress_stall.py)."""

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
from tui.logs import progress
from tui.logs.follower import Timing

from .conftest import make_app

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

TRAIN = """
import time
for i in range(10):
    print(f"iteration {i}/1000 | lm loss: 2.5 |", flush=True)
    time.sleep(0.05)
time.sleep(120)
"""


def _status(screen: JobScreen) -> str:
    return str(screen.query_one("#job-status").render())


async def test_a_step_standing_still_is_said_with_its_cost_and_the_stack_key(
    backend: LocalBackend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(progress, "STALL_FLOOR", 2.0)
    monkeypatch.setattr(progress, "STALL_UNTIMED", 2.0)  # its ten steps may arrive in one read
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
            await until(
                pilot,
                lambda: (
                    "iteration 9/1000" in _status(screen)
                    or (screen.metrics.tracker.standing().step == 9)
                ),
                "the tenth step",
                ceiling=60,
            )
            assert "no step for" not in _status(screen)  # it was moving a moment ago
            await until(pilot, lambda: "no step for 0:0" in _status(screen), "a stall", ceiling=30)
            line = next(x for x in _status(screen).splitlines() if x.startswith("no step for"))
            minutes, seconds = map(int, re.search(r"no step for (\d+):(\d\d)", line).groups())
            cost = float(re.search(r"≈ \$([\d.]+) since", line).group(1))
            still = minutes * 60 + seconds
            assert price.dedicated is not None
            assert abs(cost - price.dedicated * still / 3600) <= 0.01 + price.dedicated / 3600
            assert line.endswith("S: every rank's stack")
            assert screen.status is not None and not screen.status.is_terminal
    finally:
        backend.cancel(job)
