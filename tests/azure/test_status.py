"""Every Azure ML job state maps to a JobState; a failure names the rank its error points at."""

from __future__ import annotations

import pytest

from tui.backends.azureml.status import AZURE_STATES, build_status, failed_log, job_state
from tui.backends.base import JobState

# The job statuses of azure-ai-ml 1.35's REST models (arm_ml_service `JobStatus`), all of them.
SDK_STATES = [
    "NotStarted", "Starting", "Provisioning", "Preparing", "Queued", "Running", "Finalizing",
    "CancelRequested", "Completed", "Failed", "Canceled", "NotResponding", "Paused", "Unknown",
]  # fmt: skip


def test_every_sdk_state_is_mapped() -> None:
    from azure.ai.ml._restclient.arm_ml_service.models import JobStatus

    assert {s.value for s in JobStatus} == set(SDK_STATES) == set(AZURE_STATES)


@pytest.mark.parametrize(
    ("azure", "state", "says"),
    [
        ("NotStarted", JobState.QUEUED, "not started yet"),
        ("Queued", JobState.QUEUED, "waiting for nodes"),
        ("Preparing", JobState.STARTING, "preparing the environment image"),
        ("Provisioning", JobState.STARTING, "provisioning the nodes"),
        ("Running", JobState.RUNNING, ""),
        ("Finalizing", JobState.RUNNING, "finalizing: uploading outputs and logs"),
        ("CancelRequested", JobState.RUNNING, "cancel requested"),
        ("Completed", JobState.COMPLETED, ""),
        ("Canceled", JobState.CANCELED, ""),
        ("SomethingNew", JobState.QUEUED, "Azure ML says SomethingNew"),
    ],
)
def test_states_and_what_they_say(azure: str, state: JobState, says: str) -> None:
    assert job_state(azure) == (state, says)
    status = build_status(azure)
    assert status.state is state
    assert status.summary() == (f"{state.value}: {says}" if says else state.value)


MESSAGE = (
    "Execution failed. User process 'python' exited with status code 137. Please check log "
    "file 'user_logs/std_log_process_{}.txt' for error details. Error: killed"
)


@pytest.mark.parametrize("name", ["12", "012"])
def test_the_log_an_error_names_gives_rank_and_exit_code(name: str) -> None:
    logs = [f"user_logs/std_log_process_{i:0{len(name)}d}.txt" for i in range(16)]
    assert failed_log(MESSAGE.format(name), logs) == (logs[12], 12, 137)
    status = build_status(
        "Failed", error=MESSAGE.format(name), log_names=logs, tails={logs[12]: "a\nb\nkilled"}
    )
    assert (status.failed_rank, status.exit_code, status.failed_log) == (12, 137, logs[12])
    assert status.last_lines == ("a", "b", "killed")
    assert status.summary() == "Failed: rank 12 exited with code 137"
    assert status.message == MESSAGE.format(name)


def test_tensorflow_task_logs_are_ranked_in_plan_order() -> None:
    logs = [
        "user_logs/std_log_node_00_ps.txt",
        "user_logs/std_log_node_00_worker.txt",
        "user_logs/std_log_node_01_worker.txt",
    ]
    message = "User process exited with exit code 1. Please check log file '" + logs[0] + "'."
    assert failed_log(message, logs) == (logs[0], 2, 1)


def test_without_a_named_log_the_first_rank_with_a_traceback_is_blamed() -> None:
    logs = [f"user_logs/std_log_process_{i}.txt" for i in range(3)]
    tails = {
        logs[0]: "step 10\nstep 11",
        logs[1]: "Traceback (most recent call last):\n  File x\nValueError: bad batch",
        logs[2]: "RuntimeError: NCCL communicator was aborted",
    }
    status = build_status("Failed", error="Job failed", log_names=logs, tails=tails)
    assert (status.failed_rank, status.failed_log) == (1, logs[1])
    assert status.last_lines[-1] == "ValueError: bad batch"
    assert status.summary() == "Failed: rank 1 failed"


def test_a_failure_without_any_reason_says_where_to_look() -> None:
    status = build_status("Failed")
    assert status.message == "Azure ML gave no reason; open the job in Studio"
    assert status.failed_rank is None
