"""The job screen tells one story (issue 26, item 4): one clock from start to end (never
`Running 0:30` then `Completed 0:02`), the rank strip on the rank whose log is shown, and no
"a line every 1.0 s" beside "5 steps/s" (the strip's interval is how often logs grow)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import SCRIPTS, local_plan
from tui.backends.base import JobHandle, JobState, JobStatus
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.logs.follower import Timing
from tui.logs.sources import FileSource
from widgets.rank_strip import RankStrip

from .conftest import make_app
from .waits import until

job_root = backends.job_root
backend = backends.backend
CLOCK = re.compile(r"(Queued|Starting|Running|Completed|Failed|Canceled) (\d+):(\d\d)")


class ScriptedBackend:
    """A job whose status the test sets: the backend reports its start late, as Azure ML can."""

    name = "azureml"

    def __init__(self, log: Path, status: JobStatus) -> None:
        self.log, self.now = log, status

    def status(self, job: JobHandle) -> JobStatus:
        return self.now

    def log_sources(self, job: JobHandle) -> dict[str, FileSource]:
        name = "user_logs/std_log_process_0.txt"
        return {name: FileSource(self.log, name=name)}

    def cancel(self, job: JobHandle) -> None:
        pass


def clock_of(screen: JobScreen) -> tuple[str, int] | None:
    found = CLOCK.search(str(screen.query_one("#job-status").render()))
    return (found.group(1), int(found.group(2)) * 60 + int(found.group(3))) if found else None


async def test_one_clock_from_the_start_to_the_end(tmp_path: Path):
    log = tmp_path / "rank0.txt"
    log.write_text("epoch 0 loss 1.0\n")
    created = datetime.now(timezone.utc) - timedelta(seconds=30)  # queued for 30 s
    fake = ScriptedBackend(log, JobStatus(JobState.STARTING, created_at=created))
    job = JobHandle("azureml", "queued-long")
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = JobScreen(fake, job, status_interval=0.2, timing=Timing(min_interval=0.1))
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: (clock_of(screen) or ("", 0))[0] == "Running", "Running")
        _, running = clock_of(screen)
        assert running < 5  # from when it started writing, not from its submission
        started = datetime.now(timezone.utc) - timedelta(seconds=2)
        fake.now = JobStatus(
            JobState.COMPLETED,
            created_at=created,
            started_at=started,
            ended_at=datetime.now(timezone.utc),
        )
        await until(pilot, lambda: (clock_of(screen) or ("", 0))[0] == "Completed", "the end")
        _, completed = clock_of(screen)
        assert completed >= running
        outcome = str(screen.query_one("#job-outcome").render())
        assert f"after 0:{completed:02d}" in outcome


@pytest.mark.slow
async def test_the_rank_strip_follows_the_log_on_display(backend: LocalBackend):
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(SCRIPTS), script="ranks.py",
                   args=("--seconds", "30"))  # fmt: skip
    job = backend.submit(local_plan(spec))
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = JobScreen(backend, job, status_interval=0.2, timing=Timing(min_interval=0.1))
        await pilot.app.push_screen(screen)
        strip = screen.query_one(RankStrip)
        await until(pilot, lambda: len(strip.states) == 2, "both ranks in the strip")
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: screen.log_name.endswith("_1.txt"), "rank 1's log")
        await until(pilot, lambda: "rank 1 ·" in str(strip.render()), "the strip on rank 1")
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: "rank 0 ·" in str(strip.render()), "back on rank 0")
        await until(pilot, lambda: "grows every" in str(strip.render()), "the interval")
        assert "a line every" not in str(strip.render())
    backend.cancel(job)
