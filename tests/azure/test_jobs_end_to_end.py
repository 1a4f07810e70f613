"""Submit → status → rank 0's log live → another rank → cancel, through the real azure-ai-ml client.

The emulator runs each job with a real LocalBackend and publishes its logs into Azurite append
blobs as they grow; the backend reads them with HTTP Range requests on the SAS URLs Run History
lists, as it would on Azure ML.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from tests.azure.conftest import SCRIPTS, StaticCredential, workspace_of
from tests.azure.emulator import WorkspaceEmulator
from tui.backends.azureml import AzureMLBackend
from tui.backends.base import JobHandle, JobState
from tui.core.spec import JobSpec
from tui.logs.follower import LogFollower, Timing
from tui.planning.plan import LaunchPlan, plan

pytestmark = pytest.mark.slow
FAST = Timing(min_interval=0.05, max_interval=0.2, backoff_base=0.05, backoff_max=0.5)


def lines_job(nodes: int = 2, *args: str, **changes: object) -> LaunchPlan:
    spec = JobSpec(
        framework="pytorch",
        launch="per_process",
        nodes=nodes,
        gpus_per_node=1,
        sku=None,
        compute="gpu-cluster",
        code=str(SCRIPTS),
        script="lines.py",
        args=args,
        shm_size=None,
        display_name="lines",
        # dtrain-tui's in-job helpers travel as a local-folder input, which azure-ai-ml uploads to
        # `https://<account>.blob.core.windows.net` itself: no URL of that shape reaches Azurite
        # here, so emulated jobs go without them (tests/injob/test_azure_carry.py tests the carry)
        stacks=0,
    ).with_changes(**changes)
    return plan(spec)


async def until(check: Callable[[], bool], timeout: float = 30.0, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(check):
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(every)


async def lines_from(source, count: int, done: Callable[[], bool] | None = None) -> list[str]:
    """The first `count` lines of a log (or all of it once `done`), followed live."""
    got: list[str] = []
    follower = LogFollower(source, timing=FAST, done=done)
    async with asyncio.timeout(30):
        async for update in follower:
            got.extend(update.lines)
            if len(got) >= count:
                break
    return got


def local_job_of(emulator: WorkspaceEmulator, handle: JobHandle):
    run = emulator.runs[handle.name]
    assert run.local is not None
    return run


async def test_submit_follow_rank_0_switch_rank_and_cancel(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.run_jobs = True
    p = lines_job(2, "--lines", "100000", "--every", "0.02")
    handle = await asyncio.to_thread(backend.submit, p)
    assert handle.backend == "azureml"
    assert handle.location == emulator.studio_url(handle.name)
    assert len(emulator.puts()) == 1

    await until(lambda: backend.status(handle).state is JobState.RUNNING)
    sources = await asyncio.to_thread(backend.log_sources, handle)
    ranks = [n for n in sources if n.startswith("user_logs/std_log_process_")]
    assert ranks == ["user_logs/std_log_process_0.txt", "user_logs/std_log_process_1.txt"]

    rank0 = await lines_from(sources[ranks[0]], 20)
    assert rank0[0] == "rank 0 started with WORLD_SIZE=2"
    assert rank0[1:20] == [f"rank 0 line {i}" for i in range(19)]
    rank1 = await lines_from(sources[ranks[1]], 5)
    assert rank1[0] == "rank 1 started with WORLD_SIZE=2"
    assert rank1[1:5] == [f"rank 1 line {i}" for i in range(4)]

    run = local_job_of(emulator, handle)
    pids = [p["pid"] for p in emulator.local.info(run.local)["processes"]]
    await asyncio.to_thread(backend.cancel, handle)
    status = await asyncio.to_thread(backend.status, handle)
    assert status.state is JobState.CANCELED
    assert status.ended_at is not None
    assert not [pid for pid in pids if psutil.pid_exists(pid) and _alive(pid)]
    # After the end the whole log is published: following it to the end gives every line.
    everything = await lines_from(sources[ranks[0]], 10**9, done=lambda: True)
    local = Path(run.local.location, "user_logs/std_log_process_0.txt").read_text()
    assert everything == local.splitlines()


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def test_a_completed_job_has_its_times_and_every_line(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.run_jobs = True
    emulator.pad = 2  # Azure ML's zero-padded names: std_log_process_00.txt
    handle = await asyncio.to_thread(backend.submit, lines_job(2, "--lines", "30", "--every", "0"))
    await until(lambda: backend.status(handle).is_terminal)
    status = await asyncio.to_thread(backend.status, handle)
    assert status.state is JobState.COMPLETED, status
    assert status.created_at and status.started_at and status.ended_at
    assert status.created_at <= status.started_at <= status.ended_at
    sources = await asyncio.to_thread(backend.log_sources, handle)
    assert list(sources)[:2] == [
        "user_logs/std_log_process_00.txt",
        "user_logs/std_log_process_01.txt",
    ]
    assert any(name.startswith("system_logs/") for name in sources)
    lines = await lines_from(sources["user_logs/std_log_process_01.txt"], 10**9, lambda: True)
    assert lines == [
        "rank 1 started with WORLD_SIZE=2",
        *(f"rank 1 line {i}" for i in range(30)),
        "rank 1 done",
    ]


async def test_a_failed_job_names_the_failing_rank_its_exit_code_and_last_lines(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.run_jobs = True
    emulator.pad = 2
    p = lines_job(2, "--lines", "200", "--every", "0.02", "--fail-rank", "1", "--fail-after", "3")
    handle = await asyncio.to_thread(backend.submit, p)
    await until(lambda: backend.status(handle).is_terminal)
    status = await asyncio.to_thread(backend.status, handle)
    assert status.state is JobState.FAILED
    assert status.failed_rank == 1
    assert status.exit_code == 3
    assert status.failed_log == "user_logs/std_log_process_01.txt"
    assert status.summary() == "Failed: rank 1 exited with code 3"
    assert status.last_lines[-1] == "RuntimeError: rank 1 fails on purpose"
    assert "std_log_process_01.txt" in status.message
    sources = await asyncio.to_thread(backend.log_sources, handle)
    assert status.failed_log in sources


async def test_tensorflow_task_logs_are_listed_in_the_plans_rank_order(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.run_jobs = True
    spec = JobSpec(
        framework="tensorflow",
        launch="per_node",
        nodes=2,
        parameter_servers=1,
        gpus_per_node=1,
        sku=None,
        code=str(SCRIPTS),
        script="lines.py",
        args=("--lines", "3", "--every", "0"),
        shm_size=None,
        stacks=0,  # see lines_job
    )
    handle = await asyncio.to_thread(backend.submit, plan(spec))
    await until(lambda: backend.status(handle).is_terminal)
    assert (await asyncio.to_thread(backend.status, handle)).state is JobState.COMPLETED
    sources = await asyncio.to_thread(backend.log_sources, handle)
    assert list(sources)[:3] == [
        "user_logs/std_log_node_00_worker.txt",
        "user_logs/std_log_node_01_worker.txt",
        "user_logs/std_log_node_00_ps.txt",
    ]
    lines = await lines_from(sources["user_logs/std_log_node_00_ps.txt"], 10**9, lambda: True)
    assert lines[-1] == "rank 0 done"  # the ps task's TF_CONFIG index is 0


async def test_a_second_backend_attaches_to_a_running_job_from_jobs_list(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.run_jobs = True
    handle = await asyncio.to_thread(
        backend.submit, lines_job(1, "--lines", "100000", "--every", "0.02")
    )
    other = AzureMLBackend(workspace_of(emulator), StaticCredential())
    recent = await asyncio.to_thread(other.recent_jobs)
    assert [s.handle for s in recent] == [handle]
    assert recent[0].display_name == "lines"
    attached = await asyncio.to_thread(other.handle, handle.name)
    assert attached == handle
    await until(lambda: other.status(attached).state is JobState.RUNNING)
    sources = await asyncio.to_thread(other.log_sources, attached)
    assert (await lines_from(sources["user_logs/std_log_process_0.txt"], 3))[0].startswith("rank 0")
    await asyncio.to_thread(other.cancel, attached)
    assert (await asyncio.to_thread(backend.status, handle)).state is JobState.CANCELED
