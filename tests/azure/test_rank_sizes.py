"""The rank strip on Azure ML: every rank log's size from one listing of the job's folder in
the artifact datastore per poll, and a rank whose log stops growing is flagged.

The job is accepted by the emulator but not run: the test writes its ranks' logs into Azurite
append blobs under `ExperimentRun/dcid.<job>/user_logs/`, where Azure ML puts them, and moves
the watch's clock itself.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.azure.emulator import WorkspaceEmulator
from tests.azure.test_jobs_end_to_end import lines_job
from tests.azure.test_logs_fallback import azurite_by_its_azure_name
from tui.backends.azureml import AzureMLBackend
from tui.logs.rank_watch import RankWatch, SizePoller

pytestmark = pytest.mark.slow

RANKS = 8
STALLED = 5


def listings(requests: list[str]) -> list[str]:
    return [r for r in requests if "comp=list" in r]


async def test_one_listing_per_poll_gives_every_rank_s_size_and_flags_the_stalled_rank(
    backend: AzureMLBackend, emulator: WorkspaceEmulator, monkeypatch
) -> None:
    handle = await asyncio.to_thread(backend.submit, lines_job(RANKS))
    emulator.set_status(handle.name, "Running")
    container = emulator.azurite.service().get_container_client("azureml")
    prefix = emulator.runs[handle.name].blob_prefix
    logs = {}
    for rank in range(RANKS):
        logs[rank] = container.get_blob_client(f"{prefix}/user_logs/std_log_process_{rank}.txt")
        logs[rank].create_append_blob()
    # What else the folder holds is not a rank's, and outputs are not listed once ranks are.
    container.get_blob_client(f"{prefix}/outputs/model.pt").upload_blob(b"\0" * 4096)
    container.get_blob_client(f"{prefix}/system_logs/lifecycler.txt").upload_blob(b"up\n")
    names = {rank: f"user_logs/std_log_process_{rank}.txt" for rank in range(RANKS)}

    async def listed() -> dict[str, int] | None:
        return await asyncio.to_thread(backend.log_sizes, handle)

    with azurite_by_its_azure_name(emulator, monkeypatch) as proxy:
        poller = SizePoller(names, lister=listed)
        watch = RankWatch(poll_interval=1.0)
        written = dict.fromkeys(range(RANKS), 0)
        for poll in range(16):
            for rank, blob in logs.items():
                if rank == STALLED and poll >= 6:
                    continue  # rank 5 hangs: its log stops growing
                line = f"rank {rank} step {poll} loss {1 / (poll + 1):.3f}\n".encode()
                blob.append_block(line, length=len(line))
                written[rank] += len(line)
            before = len(proxy.requests)
            sizes = await poller.poll()
            sent = proxy.requests[before:]
            assert len(sent) == 1 and listings(sent) == sent, sent  # one List Blobs, no HEADs
            assert sizes == written
            watch.observe(sizes, now=float(poll))
            verdict = watch.verdict(now=float(poll))
            if poll < 8:
                assert verdict.suspects == ()
        assert verdict.suspects == (STALLED,)
        assert not verdict.all_silent
        assert "straggler / hang suspect: rank 5" in verdict.summary()
        assert all("outputs" not in r for r in listings(proxy.requests)[1:])
        assert "prefix=ExperimentRun" in listings(proxy.requests)[-1]
        assert "user_logs" in listings(proxy.requests)[-1]
    secrets = [r for r in emulator.requests if r.path.endswith("/listSecrets")]
    assert len(secrets) == 1, "the datastore is looked up once, not per poll"


async def test_an_identity_only_datastore_cannot_be_listed_and_sizes_are_asked_one_by_one(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.datastore_secrets = "None"
    handle = await asyncio.to_thread(backend.submit, lines_job(2))
    emulator.set_status(handle.name, "Running")
    assert await asyncio.to_thread(backend.log_sizes, handle) is None

    class Head:
        def __init__(self, size: int) -> None:
            self.size_now = size

        async def size(self) -> int:
            return self.size_now

    async def listed() -> dict[str, int] | None:
        return await asyncio.to_thread(backend.log_sizes, handle)

    names = {0: "user_logs/std_log_process_0.txt", 1: "user_logs/std_log_process_1.txt"}
    poller = SizePoller(names, {names[0]: Head(10), names[1]: Head(20)}, lister=listed, budget=1)
    assert await poller.poll() == {0: 10}
    assert await poller.poll() == {1: 20}  # the round-robin, one HEAD a poll
    assert poller.lister is None
