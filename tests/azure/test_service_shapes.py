"""The backend through the real azure-ai-ml client against the emulator answering the way the
service does in the recordings (tests/azure/data/SOURCES.md): statuses, cancel, paging, errors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.azure.emulator import WorkspaceEmulator
from tests.azure.test_jobs_end_to_end import lines_from, lines_job, until
from tests.azure.test_status import SDK_STATES
from tui.backends.azureml import AzureMLBackend
from tui.backends.azureml.status import AZURE_STATES
from tui.backends.base import BackendError, JobNotFound, JobState

DATA = Path(__file__).parent / "data"


def test_a_created_job_first_says_starting(backend: AzureMLBackend, emulator) -> None:
    from azure.ai.ml import command

    job = command(
        name="starting-1",
        command="echo hi",
        environment="azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu:33",
        compute="gpu-cluster",
    )
    created = backend.ml_client.jobs.create_or_update(job)
    assert created.status == "Starting"


@pytest.mark.parametrize("azure", SDK_STATES)
def test_every_state_the_sdk_has_reaches_the_job_status(
    backend: AzureMLBackend, emulator: WorkspaceEmulator, azure: str
) -> None:
    handle = backend.submit(lines_job(1))
    emulator.set_status(handle.name, azure)
    status = backend.status(handle)
    state, note = AZURE_STATES[azure]
    assert status.state is state
    if state is not JobState.FAILED:
        assert status.message == note
    assert status.is_terminal == (azure in ("Completed", "Failed", "Canceled"))


def test_not_responding_and_paused_say_why_and_are_not_the_end(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    handle = backend.submit(lines_job(1))
    emulator.set_status(handle.name, "NotResponding")
    status = backend.status(handle)
    assert (status.state, status.is_terminal) == (JobState.RUNNING, False)
    assert status.summary().startswith("Running: not responding: Azure ML has had no heartbeat")
    emulator.set_status(handle.name, "Paused")
    status = backend.status(handle)  # not cached as final: the job may go on
    assert status.summary() == "Queued: paused in Azure ML: it goes on when someone resumes it"


def test_the_recorded_400_is_shown_by_its_specific_cause(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    body = json.loads((DATA / "error_400_details.json").read_text())
    emulator.fail_next("PUT", "/jobs/", status=400, body=body)
    with pytest.raises(BackendError) as caught:
        backend.submit(lines_job(1))
    message = str(caught.value)
    assert "Could not find member 'assetVersion' on object of type 'UriFolderJobOutput'" in message
    assert "Request is invalid" not in message and "\n" not in message


def test_run_history_not_knowing_a_run_is_job_not_found(backend: AzureMLBackend, emulator) -> None:
    with pytest.raises(JobNotFound, match="no job named ghost"):
        backend._details("ghost")
    (request,) = [r for r in emulator.requests if r.path.startswith("/history/")]
    assert request.path.endswith("/runs/ghost/details")


def test_the_attach_list_pages_lazily_and_counts_what_it_cannot_show(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.page_size = 2
    emulator.add_foreign_job("labeling-1", "Labeling")
    emulator.add_foreign_job("batch-1", "unreadable")
    ours = [backend.submit(lines_job(1, display_name=f"ours {i}")) for i in range(3)]
    emulator.add_foreign_job("labeling-2", "Labeling")  # newest: alone on page 1 with ours[2]

    def list_requests() -> int:
        return sum(1 for r in emulator.requests if r.method == "GET" and r.path.endswith("/jobs"))

    recent = backend.recent_jobs()
    assert [j.handle.name for j in recent] == [h.name for h in reversed(ours)]
    assert recent.skipped == 3
    assert recent.note() == "3 jobs of other kinds not shown"
    assert list_requests() == 3  # 6 jobs, 2 a page
    emulator.requests.clear()
    first = backend.recent_jobs(limit=1)
    assert [j.handle.name for j in first] == [ours[2].name]
    assert first.skipped == 1
    assert list_requests() == 1  # the later pages were never asked for


async def test_a_cancel_answered_200_leaves_the_job_cancel_requested_a_while(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.cancel_status = 200
    emulator.cancel_delay = 1.0
    handle = await asyncio.to_thread(backend.submit, lines_job(1))
    await asyncio.to_thread(backend.cancel, handle)
    status = await asyncio.to_thread(backend.status, handle)
    assert (status.state, status.message) == (JobState.RUNNING, "cancel requested")
    assert not any("mfeOperationResults" in r.path for r in emulator.requests)
    await until(lambda: backend.status(handle).state is JobState.CANCELED)


async def test_a_cancel_answered_202_is_followed_to_its_end(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    handle = await asyncio.to_thread(backend.submit, lines_job(1))
    await asyncio.to_thread(backend.cancel, handle)
    assert any("mfeOperationResults" in r.path for r in emulator.requests)
    await until(lambda: backend.status(handle).state is JobState.CANCELED)


@pytest.mark.slow
async def test_an_older_runtime_job_names_its_failing_rank_from_driver_logs(
    backend: AzureMLBackend, emulator: WorkspaceEmulator
) -> None:
    emulator.run_jobs = True
    emulator.legacy_logs = True
    p = lines_job(2, "--lines", "200", "--every", "0.02", "--fail-rank", "1", "--fail-after", "3")
    handle = await asyncio.to_thread(backend.submit, p)
    await until(lambda: backend.status(handle).is_terminal)
    status = await asyncio.to_thread(backend.status, handle)
    assert (status.failed_rank, status.failed_log) == (1, "azureml-logs/70_driver_log_1.txt")
    assert status.summary() == "Failed: rank 1 exited with code 3"
    assert status.last_lines[-1] == "RuntimeError: rank 1 fails on purpose"
    sources = await asyncio.to_thread(backend.log_sources, handle)
    assert list(sources)[:2] == [
        "azureml-logs/70_driver_log_0.txt",
        "azureml-logs/70_driver_log_1.txt",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("secrets", ["Sas", "AccountKey"])
async def test_user_logs_run_history_leaves_out_come_from_the_datastore_folder(
    backend: AzureMLBackend, emulator: WorkspaceEmulator, monkeypatch, secrets: str
) -> None:
    from tests.azure.test_logs_fallback import azurite_by_its_azure_name

    emulator.run_jobs = True
    emulator.user_logs_listed_while_running = False
    emulator.datastore_secrets = secrets
    with azurite_by_its_azure_name(emulator, monkeypatch):
        handle = await asyncio.to_thread(
            backend.submit, lines_job(2, "--lines", "100000", "--every", "0.02")
        )
        await until(lambda: backend.status(handle).state is JobState.RUNNING)
        await until(lambda: len(emulator.runs[handle.name].log_blobs()) >= 3)
        listed = emulator.run_details(emulator.runs[handle.name])["logFiles"]
        assert list(listed) == ["system_logs/launcher.txt"]  # as users report: no user_logs/
        sources = await asyncio.to_thread(backend.log_sources, handle)
        assert list(sources) == [
            "user_logs/std_log_process_0.txt",
            "user_logs/std_log_process_1.txt",
            "system_logs/launcher.txt",
        ]
        lines = await lines_from(sources["user_logs/std_log_process_1.txt"], 2)
        assert lines[0] == "rank 1 started with WORLD_SIZE=2"
        await asyncio.to_thread(backend.cancel, handle)


@pytest.mark.slow
async def test_the_attach_dialog_says_how_many_jobs_it_leaves_out(
    backend: AzureMLBackend, emulator: WorkspaceEmulator, tmp_path, monkeypatch
) -> None:
    from textual.widgets import OptionList, Static

    from screens.attach import AttachScreen
    from tests.azure.test_ui_azure import make_app
    from tests.azure.test_ui_azure import until as ui_until

    monkeypatch.chdir(tmp_path)
    emulator.page_size = 1
    emulator.add_foreign_job("labeling-1", "Labeling")
    ours = backend.submit(lines_job(1))
    emulator.add_foreign_job("batch-1", "unreadable")
    app = make_app(backend)
    async with app.run_test(size=(120, 40)) as pilot:
        app.action_attach()
        await ui_until(
            pilot,
            lambda: isinstance(app.screen, AttachScreen) and app.screen.query(OptionList),
            "the attach dialog",
        )
        options = app.screen.query_one(OptionList)
        await ui_until(pilot, lambda: options.option_count == 1, "the jobs")
        assert options.get_option_at_index(0).id == ours.name
        status = str(app.screen.query_one("#attach-status", Static).render())
        assert status == "1 recent job in ws-test, newest first (2 jobs of other kinds not shown):"
