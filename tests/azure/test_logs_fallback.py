"""While Run History lists no logs for a running job, they come from its datastore folder."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from tests.azure.emulator import WorkspaceEmulator
from tests.azure.host_proxy import HostProxy
from tests.azure.test_jobs_end_to_end import lines_from, lines_job, until
from tui.backends.azureml import AzureMLBackend
from tui.backends.base import JobState

pytestmark = pytest.mark.slow


@contextmanager
def azurite_by_its_azure_name(emulator: WorkspaceEmulator, monkeypatch) -> Iterator[HostProxy]:
    """Azurite reachable as `devstoreaccount1.blob.localhost:PORT`, the URL a datastore's
    account, endpoint and protocol make (through a proxy; the emulator stays direct)."""
    with HostProxy(urlsplit(emulator.azurite.endpoint).port) as proxy:
        for name in ("HTTP_PROXY", "http_proxy"):
            monkeypatch.setenv(name, proxy.url)
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.setenv(name, "127.0.0.1")
        yield proxy


async def test_a_running_job_without_run_history_logs_is_read_from_its_datastore_folder(
    backend: AzureMLBackend, emulator: WorkspaceEmulator, monkeypatch
) -> None:
    emulator.run_jobs = True
    emulator.list_logs_in_run_history = False
    port = urlsplit(emulator.azurite.endpoint).port
    with azurite_by_its_azure_name(emulator, monkeypatch) as proxy:
        handle = await asyncio.to_thread(
            backend.submit, lines_job(2, "--lines", "100000", "--every", "0.02")
        )
        await until(lambda: backend.status(handle).state is JobState.RUNNING)
        await until(lambda: len(emulator.runs[handle.name].log_blobs()) >= 2)
        sources = await asyncio.to_thread(backend.log_sources, handle)
        assert list(sources)[:2] == [
            "user_logs/std_log_process_0.txt",
            "user_logs/std_log_process_1.txt",
        ]
        lines = await lines_from(sources["user_logs/std_log_process_1.txt"], 5)
        assert lines[0] == "rank 1 started with WORLD_SIZE=2"
        assert f"devstoreaccount1.blob.localhost:{port}" in proxy.hosts  # Azure-shaped URLs
        secrets = [r for r in emulator.requests if r.path.endswith("/listSecrets")]
        assert secrets, "the account key came from the datastore's secrets"
        await asyncio.to_thread(backend.cancel, handle)
