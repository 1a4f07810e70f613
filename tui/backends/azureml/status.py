"""Azure ML's job states and failures as a `JobStatus`: every state, and which rank failed.

Azure ML has more states than `JobState`; each maps to the nearest one, with Azure's own word
in the message when it says more (Preparing, Finalizing, CancelRequested, NotResponding …).
NotResponding and Paused are not ends: azure-ai-ml's `RunHistoryConstants.TERMINAL_STATUSES` counts
them as terminal, but a run leaves NotResponding when its heartbeat comes back and a paused job
goes on when resumed, so the job screen keeps polling and following the logs and says why in
its status line; the user decides whether to cancel.

A failed job's error names the log to read ("… exited with status code 1. Please check log file
'user_logs/std_log_process_3.txt' …"); that log gives the failing rank.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from tui.backends.base import JobState, JobStatus
from tui.logs.names import rank_logs
from tui.logs.service_error import ServiceError

# Azure ML's RunStatus values (azure-ai-ml `JobStatus`), each with what it means for the user.
AZURE_STATES: dict[str, tuple[JobState, str]] = {
    "NotStarted": (JobState.QUEUED, "not started yet"),
    "Queued": (JobState.QUEUED, "waiting for nodes"),
    "Paused": (JobState.QUEUED, "paused in Azure ML: it goes on when someone resumes it"),
    "Unknown": (JobState.QUEUED, "Azure ML does not know its state yet"),
    "Preparing": (JobState.STARTING, "preparing the environment image"),
    "Provisioning": (JobState.STARTING, "provisioning the nodes"),
    "Starting": (JobState.STARTING, ""),
    "Running": (JobState.RUNNING, ""),
    "Finalizing": (JobState.RUNNING, "finalizing: uploading outputs and logs"),
    "CancelRequested": (JobState.RUNNING, "cancel requested"),
    "NotResponding": (
        JobState.RUNNING,
        "not responding: Azure ML has had no heartbeat from the job for a while; it may "
        "recover, logs keep following (cancel if it stays so)",
    ),
    "Completed": (JobState.COMPLETED, ""),
    "Failed": (JobState.FAILED, ""),
    "Canceled": (JobState.CANCELED, ""),
}

_LOG_NAMED = re.compile(r"log file '([^']+)'")
_EXIT_CODE = re.compile(r"exit(?:ed with)? (?:status |exit )?code:? (-?\d+)", re.IGNORECASE)
_TRACEBACK = re.compile(r"^(Traceback \(most recent call last\)|\w*Error: )", re.MULTILINE)


def job_state(azure_status: str | None) -> tuple[JobState, str]:
    """The JobState for an Azure ML status, and a note when Azure's word says more."""
    if azure_status in AZURE_STATES:
        return AZURE_STATES[azure_status]
    return JobState.QUEUED, f"Azure ML says {azure_status or 'nothing'}"


def failed_log(message: str, log_names: Iterable[str]) -> tuple[str | None, int | None, int | None]:
    """(log name, rank, exit code) an Azure ML error message points at, as far as it says."""
    names = list(log_names)
    match = _LOG_NAMED.search(message)
    exit_match = _EXIT_CODE.search(message)
    exit_code = int(exit_match.group(1)) if exit_match else None
    if match is None:
        return None, None, exit_code
    log = match.group(1)
    ranks = rank_logs(names if log in names else [*names, log])
    rank = next((r.rank for r in ranks if r.name == log), None)
    return log, rank, exit_code


def first_failing(tails: dict[str, str]) -> str | None:
    """Of rank logs' tails (in rank order), the first that ends in a traceback or an error."""
    return next((name for name, tail in tails.items() if _TRACEBACK.search(tail)), None)


def build_status(
    azure_status: str | None,
    *,
    created_at: datetime | None = None,
    started_at: datetime | None = None,
    ended_at: datetime | None = None,
    error: str = "",
    log_names: Iterable[str] = (),
    tails: dict[str, str] | None = None,
    service_error: ServiceError | None = None,
) -> JobStatus:
    """A JobStatus from what `jobs.get` and the run's details say.

    `error` is the run's error in one line (the status's message); `service_error` the whole of
    it (code, nested codes, message, details), kept for the doctor. `tails` (rank log name → its
    last lines) is consulted for a failed job whose error names no log; the first rank whose
    tail shows a traceback is taken as the failing one.
    """
    state, note = job_state(azure_status)
    names = list(log_names)
    failed_name = rank = exit_code = None
    last: tuple[str, ...] = ()
    message = note
    if state is JobState.FAILED:
        message = error or "Azure ML gave no reason; open the job in Studio"
        # The whole message: its one line may be cut before the log it names.
        said = service_error.message if service_error and service_error.message else error
        failed_name, rank, exit_code = failed_log(said, names)
        if failed_name is None and tails:
            failed_name = first_failing(tails)
            rank = next((r.rank for r in rank_logs(names) if r.name == failed_name), None)
        if failed_name is not None and tails and failed_name in tails:
            last = tuple(tails[failed_name].splitlines()[-10:])
    elif error and state is not JobState.COMPLETED:
        message = f"{note}: {error}" if note else error
    return JobStatus(
        state=state,
        created_at=created_at,
        started_at=started_at,
        ended_at=ended_at,
        failed_rank=rank,
        exit_code=exit_code,
        last_lines=last,
        failed_log=failed_name,
        message=message,
        error=service_error or None,
    )
