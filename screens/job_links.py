"""`JobLinks`: what the job screen's parts (`JobMetrics`, `JobNetwork`, `JobRanks`) need of it.

Each part gets the job, its logs and the few hands of the screen it works with (start a worker,
hand a result back from a thread, whether it is still on screen), plus its own widget and what
it reads of another part as plain callables: no part holds the screen, or another part.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.worker import Worker

    from tui.backends.base import Backend, JobHandle
    from tui.logs.sources import LogSource


@dataclass(frozen=True)
class JobLinks:
    """The job one screen shows, its logs, and the screen's hands its parts use."""

    backend: Backend
    handle: JobHandle
    sources: Mapping[str, LogSource]
    """Every log found so far, by its Azure ML name: the screen's own dict, kept up to date."""
    run_worker: Callable[..., Worker[Any]]
    """The screen's `run_worker`: the worker ends when the screen is closed."""
    call_from_thread: Callable[..., Any]
    """The app's `call_from_thread`: a thread worker's result back on the screen's thread."""
    mounted: Callable[[], bool]
    """Whether the screen is still on display (a worker stops when it is not)."""
