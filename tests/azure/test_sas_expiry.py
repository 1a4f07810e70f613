"""Log URLs that expire mid-stream lose no line: each 403 fetches the run's log list again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.azure.emulator import WorkspaceEmulator
from tests.azure.test_jobs_end_to_end import FAST, lines_job, until
from tui.backends.azureml import AzureMLBackend
from tui.backends.base import JobState
from tui.logs.follower import LogFollower

pytestmark = pytest.mark.slow


async def test_expired_sas_urls_are_refreshed_without_losing_a_line(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.run_jobs = True
    emulator.sas_lifetime = 1.0  # Azurite refuses the URL with 403 a second or two later
    handle = await asyncio.to_thread(
        backend.submit, lines_job(1, "--lines", "120", "--every", "0.04")
    )
    await until(lambda: backend.status(handle).state is not JobState.QUEUED)
    sources = await asyncio.to_thread(backend.log_sources, handle)
    source = sources["user_logs/std_log_process_0.txt"]
    details_before = _details_calls(emulator)

    async def done() -> bool:
        return (await asyncio.to_thread(backend.status, handle)).is_terminal

    lines: list[str] = []
    async with asyncio.timeout(60):
        async for update in LogFollower(source, timing=FAST, done=done):
            lines.extend(update.lines)
    assert (await asyncio.to_thread(backend.status, handle)).state is JobState.COMPLETED
    run = emulator.runs[handle.name]
    local = Path(run.local.location, "user_logs/std_log_process_0.txt").read_text()
    assert lines == local.splitlines()
    assert lines[-1] == "rank 0 done" and len(lines) == 122
    assert source.url_refreshes >= 2  # the job ran ~5 s on 1-second URLs
    assert _details_calls(emulator) > details_before


def _details_calls(emulator: WorkspaceEmulator) -> int:
    return sum(1 for r in emulator.requests if r.path.endswith("/details"))
