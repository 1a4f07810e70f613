"""A failing rank fails the job; cancel, a quitting app and a dead supervisor leave nothing running.

The ranks run `scripts/ranks.py` (stdlib, starts fast) and print their pids, so the tests check
the processes themselves, not the backend's bookkeeping.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from tests.backends.conftest import SCRIPTS, local_plan, require, running, started_pids
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.backends.local.jobdir import JobDir
from tui.core.spec import JobSpec

pytestmark = pytest.mark.slow

MODES = {
    "per-process": {"framework": "pytorch", "launch": "per_process"},
    "torchrun": {"framework": "pytorch", "launch": "per_node"},
    "mpirun": {"framework": "horovod", "launch": "per_process"},
}
NEEDS = {"per-process": (), "torchrun": ("torchrun",), "mpirun": ("mpirun",)}


def ranks_spec(mode: str = "per-process", *args: str) -> JobSpec:
    return JobSpec(
        **MODES[mode],
        nodes=2,
        gpus_per_node=2,
        sku=None,
        code=str(SCRIPTS),
        script="ranks.py",
        args=args,
    )


def wait_gone(procs, timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [p.pid for p in procs if running(p)]
        if not alive:
            return []
        time.sleep(0.05)
    return alive


@pytest.mark.parametrize("mode", ["per-process", "mpirun"])
def test_rank_3_exiting_1_fails_the_job_naming_it_and_stops_the_others(
    backend: LocalBackend, mode: str
):
    require(*NEEDS[mode])
    # The others would beat for 600 s: the job ends long before only because they are stopped.
    p = local_plan(ranks_spec(mode, "--fail-rank", "3", "--fail-after", "1", "--seconds", "600"))
    job = backend.submit(p)
    procs = started_pids(Path(job.location), 4)
    status = backend.wait(job, timeout=120)
    assert status.state is JobState.FAILED
    assert (status.failed_rank, status.exit_code) == (3, 1)
    assert status.failed_log == "user_logs/std_log_process_3.txt"
    assert status.last_lines[-1] == "rank 3: failing on purpose with exit code 1"
    assert status.summary() == "Failed: rank 3 exited with code 1"
    assert wait_gone(procs.values(), 60.0) == []
    assert status.duration is not None and status.duration < 120


def test_a_rank_failing_under_torchrun_is_named_from_torchrun_s_summary(backend: LocalBackend):
    require("torchrun")
    p = local_plan(
        ranks_spec("torchrun", "--fail-rank", "3", "--exit-code", "3", "--seconds", "600")
    )
    job = backend.submit(p)
    status = backend.wait(job, timeout=120)
    assert (status.state, status.failed_rank, status.exit_code) == (JobState.FAILED, 3, 3)
    assert "failing on purpose" in status.last_lines[-1]
    # torchrun's own summary goes to the first rank of its node, as Azure ML's node log has it.
    node_1_log = (Path(job.location) / "user_logs/std_log_process_2.txt").read_text()
    assert "Root Cause (first observed failure)" in node_1_log
    leftovers = [x for x in backend.info(job)["processes"] if running_record(x)]
    assert leftovers == []


def test_a_finished_jobs_supervisor_is_not_left_a_zombie(backend: LocalBackend):
    """The supervisor exits after it records the job's end, when the app may not ask about the
    job again: it must still be waited for (an app that ran ten rehearsals held ten zombies)."""
    job = backend.submit(local_plan(ranks_spec("per-process", "--seconds", "1")))
    assert backend.wait(job, timeout=120).state is JobState.COMPLETED
    pid = int(JobDir(Path(job.location)).supervisor_file.read_text().split()[0])
    deadline = time.monotonic() + 30
    while psutil.pid_exists(pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # (its end recorded, it is still closing)
    if psutil.pid_exists(pid):
        pytest.fail(f"the supervisor is still there 30 s on: {psutil.Process(pid).status()}")


def running_record(record: dict) -> bool:
    from tui.backends.local.procs import is_alive

    return is_alive(record["pid"], record["start"])


@pytest.mark.parametrize("mode", list(MODES))
def test_cancel_during_a_run_stops_every_process(backend: LocalBackend, mode: str):
    # How long a cancel takes is a figure for tests/benchmarks/bench_stops.py; here, that it
    # stops everything long before the ranks would have ended by themselves (600 s).
    require(*NEEDS[mode])
    job = backend.submit(local_plan(ranks_spec(mode, "--seconds", "600")))
    procs = started_pids(Path(job.location), 4)
    recorded = backend.info(job)["processes"]
    backend.cancel(job)
    status = backend.status(job)
    assert status.state is JobState.CANCELED
    assert wait_gone(procs.values(), 60.0) == []
    assert [r["pid"] for r in recorded if running_record(r)] == []
    backend.cancel(job)  # canceling an ended job changes nothing
    assert backend.status(job).state is JobState.CANCELED


APP = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tui.backends.local import LocalBackend
    from tui.planning.plan import Target, plan
    from tui.core.spec import JobSpec

    spec = JobSpec(nodes=2, gpus_per_node=2, sku=None, code=sys.argv[2], script="ranks.py")
    backend = LocalBackend(Path(sys.argv[1]), gpus=[])
    job = backend.submit(plan(spec, Target.for_spec("local", spec)))
    print(job.location, flush=True)
    sys.stdin.read()  # the app keeps running until the test kills it
    """
)


def test_jobs_stop_when_the_app_that_submitted_them_is_killed(job_root: Path):
    app = subprocess.Popen(
        [sys.executable, "-c", APP, str(job_root), str(SCRIPTS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        job_dir = Path(app.stdout.readline().strip())
        procs = started_pids(job_dir, 4)
        app.send_signal(signal.SIGKILL)
        app.wait()
        assert wait_gone(procs.values(), 60.0) == []
    finally:
        app.kill()
        app.wait()
    backend = LocalBackend(job_root)
    status = backend.wait(backend.handle(job_dir.name), timeout=60)
    assert status.state is JobState.CANCELED
    assert f"the app that submitted it (pid {app.pid}) exited" in status.message


def test_a_new_backend_fails_a_job_whose_supervisor_died_and_kills_its_processes(job_root: Path):
    first = LocalBackend(job_root, gpus=[], detach=True)
    job = first.submit(local_plan(ranks_spec("per-process", "--seconds", "60")))
    procs = started_pids(Path(job.location), 4)
    deadline = time.monotonic() + 60  # until the supervisor has recorded every rank
    while not {p.pid for p in procs.values()} <= {r["pid"] for r in first.info(job)["processes"]}:
        assert time.monotonic() < deadline, "the supervisor did not record the ranks"
        time.sleep(0.05)
    sup_pid = int((Path(job.location) / "supervisor.pid").read_text().split()[0])
    supervisor = psutil.Process(sup_pid)
    os.kill(sup_pid, signal.SIGKILL)
    assert wait_gone([supervisor], 60.0) == []
    assert all(running(p) for p in procs.values())  # orphaned, still running

    second = LocalBackend(job_root)
    assert second.recovered == [job.name]
    status = second.status(job)
    assert status.state is JobState.FAILED
    assert f"supervisor (pid {sup_pid}) stopped" in status.message
    assert wait_gone(procs.values(), 60.0) == []
    assert LocalBackend(job_root).recovered == []  # done once
