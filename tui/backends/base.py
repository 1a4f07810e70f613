"""What every backend offers: submit a `LaunchPlan`, then ask for its status, logs, or cancel it.

The UI and the CLI speak only this protocol, so the local rehearsal and the Azure ML job look
alike: the same states (Azure ML's names), the same log names
(`user_logs/std_log_process_<rank>.txt`), the same failure report (which rank failed first, its
exit code, its last lines).
No Textual and no Azure imports here; blocking calls belong in a thread worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from tui.logs.service_error import ServiceError

if TYPE_CHECKING:
    from tui.logs.sources import LogSource
    from tui.planning.plan import LaunchPlan


class BackendError(Exception):
    """A job could not be submitted, found or canceled; the message is one readable line."""


class JobNotFound(BackendError):
    """No job of that name on this backend."""


class ComputeNotFound(BackendError):
    """The cluster the job names does not exist; `name` is its name (it can be created)."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


class JobState(str, Enum):
    """A job's lifecycle, in Azure ML's words."""

    QUEUED = "Queued"
    STARTING = "Starting"
    RUNNING = "Running"
    COMPLETED = "Completed"
    FAILED = "Failed"
    CANCELED = "Canceled"
    UNKNOWN = "Unknown"
    """A local job whose record is damaged: nothing can tell its state, nothing will change it."""

    @property
    def is_terminal(self) -> bool:
        """Whether the job has ended and will not change state again."""
        return self in (JobState.COMPLETED, JobState.FAILED, JobState.CANCELED, JobState.UNKNOWN)


@dataclass(frozen=True)
class JobHandle:
    """Names a submitted job; enough for its backend to find it again, even in another process."""

    backend: str
    """The backend's name: "local" or "azureml"."""
    name: str
    """The job's name, unique on its backend (what `dtrain-tui cancel NAME` takes)."""
    location: str = ""
    """Where the backend finds it: the job folder (local), the studio URL (Azure ML)."""

    def to_dict(self) -> dict[str, str]:
        return {"backend": self.backend, "name": self.name, "location": self.location}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JobHandle:
        return cls(str(data["backend"]), str(data["name"]), str(data.get("location", "")))


def describe_exit(code: int | None) -> str:
    """`exited with code 1`, `was killed by signal 9 (SIGKILL)`, or `failed` when unknown."""
    if code is None:
        return "failed"
    if code < 0:
        import signal

        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "unknown"
        return f"was killed by signal {-code} ({name})"
    return f"exited with code {code}"


@dataclass(frozen=True)
class JobStatus:
    """Where a job stands. On failure it names the first rank that failed and why."""

    state: JobState
    created_at: datetime | None = None
    started_at: datetime | None = None
    """When the training processes started (None while Queued or Starting)."""
    ended_at: datetime | None = None
    failed_rank: int | None = None
    """The first rank that failed (Failed only; None when no rank is to blame)."""
    exit_code: int | None = None
    """That rank's exit code; negative: killed by that signal."""
    last_lines: tuple[str, ...] = ()
    """The last lines of that rank's log."""
    failed_log: str | None = None
    """That rank's log name, a key of `log_sources()`."""
    message: str = ""
    """One line for people: what happened, or why it is in this state."""
    error: ServiceError | None = None
    """The service's own error for the job, code and message as it gave them (None: it gave
    none, as for a job on this machine); the doctor reads it beside the logs."""

    @property
    def is_terminal(self) -> bool:
        return self.state.is_terminal

    @property
    def duration(self) -> float | None:
        """Seconds from start to end (or to now while running); None before it starts."""
        if self.started_at is None:
            return None
        end = self.ended_at or datetime.now(self.started_at.tzinfo)
        return (end - self.started_at).total_seconds()

    def summary(self) -> str:
        """`Failed: rank 3 exited with code 1`, `Completed`, `Canceled: the app exited`, …"""
        if self.state is JobState.FAILED and self.failed_rank is not None:
            return f"Failed: rank {self.failed_rank} {describe_exit(self.exit_code)}"
        return f"{self.state.value}: {self.message}" if self.message else self.state.value


@runtime_checkable
class Backend(Protocol):
    """Where jobs run. Every method may block (disk, processes, network): call it off the UI."""

    name: str

    def submit(self, plan: LaunchPlan) -> JobHandle:
        """Start the job the plan describes; returns at once (the job runs in the background)."""
        ...

    def status(self, job: JobHandle) -> JobStatus: ...

    def log_sources(self, job: JobHandle) -> dict[str, LogSource]:
        """Every log of the job by its Azure ML name, e.g. `user_logs/std_log_process_3.txt`."""
        ...

    def cancel(self, job: JobHandle) -> str | None:
        """Stop every process of the job; a job that already ended is left as it is. Stopping
        never waits on recording it: a warning says what could not be recorded (else None)."""
        ...
