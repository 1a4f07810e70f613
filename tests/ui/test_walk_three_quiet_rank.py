"""The third walk (issue 40, item 2): a healthy rank that prints nothing is not a hang suspect.

A real 2 × 1 job where only rank 0 prints, watched for 90 s on a clock the test drives (each
poll is 3 s later), so nothing really waits: rank 1's empty log never "grew", rank 1 is quiet,
and nobody is a suspect."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.core.spec import JobSpec
from widgets.rank_strip import RankStrip

from .conftest import make_app
from .test_rank_strip import open_job
from .waits import until

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

ONLY_RANK_0 = textwrap.dedent(
    """
    import os, time
    rank = int(os.environ["RANK"])
    for step in range(10_000):
        if rank == 0:
            print(f"step {step} loss {1 / (step + 1):.3f}", flush=True)
        time.sleep(0.1)
    """
)


def two_by_one(backend, tmp_path: Path):
    code = tmp_path / "code"
    code.mkdir()
    (code / "quiet.py").write_text(ONLY_RANK_0)
    spec = JobSpec(
        framework="pytorch",
        launch="per_process",
        nodes=2,
        gpus_per_node=1,
        sku=None,
        code=str(code),
        script="quiet.py",
    )
    return backend.submit(local_plan(spec))


class Clock:
    """Each reading is `step` seconds after the last, from a start the test sets."""

    def __init__(self, start: float, step: float) -> None:
        self.now, self.step = start, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


async def test_a_rank_that_prints_nothing_is_quiet_not_a_suspect(backend, tmp_path: Path):
    handle = two_by_one(backend, tmp_path)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_job(pilot, backend, handle)
        clock = Clock(time.monotonic(), 3.0)
        screen.ranks.clock = clock
        watch = screen.ranks.watch
        strip = screen.query_one(RankStrip)
        await until(pilot, lambda: 1 in watch.ranks and watch.ranks[1].size == 0, "rank 1's log")
        start = clock.now
        await until(pilot, lambda: clock.now - start > 90, "90 s on the job's clock")
        assert watch.ranks[0].state == "running" and (watch.ranks[0].size or 0) > 0
        assert watch.ranks[1].grew_at is None  # an empty log never grew
        assert watch.ranks[1].state == "quiet"
        assert strip.suspects == () and "suspect" not in str(strip.render())
        strip.select(1)
        await pilot.pause()
        detail = str(strip.render())
        assert "rank 1 · quiet · 0 B · nothing printed yet" in detail
        assert "grew" not in detail.split("rank 1", 1)[1]
        backend.cancel(handle)
