"""A job name chosen before the first request: a submit that is retried cannot create two jobs."""

from __future__ import annotations

import pytest

from tests.azure.conftest import StaticCredential, workspace_of
from tests.azure.emulator import WorkspaceEmulator
from tests.azure.test_jobs_end_to_end import lines_job
from tui.backends.azureml import AzureMLBackend
from tui.backends.base import BackendError


def test_a_lost_response_is_retried_with_the_same_name(backend, emulator) -> None:
    emulator.fail_next("PUT", "/jobs/", drop_after=True)  # the job is created, the answer lost
    handle = backend.submit(lines_job(1))
    puts = emulator.puts()
    assert len(puts) == 2 and puts[0].path == puts[1].path  # azure-core retried the same PUT
    assert list(emulator.runs) == [handle.name]


def test_submitting_again_after_an_unknown_outcome_finds_the_first_job(
    emulator: WorkspaceEmulator,
) -> None:
    backend = AzureMLBackend(
        workspace_of(emulator), StaticCredential(), client_kwargs={"retry_total": 0}
    )
    emulator.fail_next("PUT", "/jobs/", drop_after=True)
    p = lines_job(1)
    with pytest.raises(BackendError, match="it may have been created: submit again to find it"):
        backend.submit(p)
    (created,) = emulator.runs
    handle = backend.submit(p)  # the user presses Submit again
    assert handle.name == created
    assert len(emulator.puts()) == 1  # found with a GET; nothing was sent twice
    assert list(emulator.runs) == [created]
    # A new submit of the same plan after that success is a new job.
    assert backend.submit(p).name != created


def test_a_definite_refusal_does_not_hold_the_name(backend, emulator) -> None:
    p = lines_job(1, compute="nope")
    with pytest.raises(BackendError, match="Azure ML rejected"):
        backend.submit(p)
    first = emulator.puts()[0].path
    emulator.add_compute("nope", "Standard_ND96asr_v4", max_nodes=2)
    handle = backend.submit(p)
    assert not first.endswith(handle.name)
