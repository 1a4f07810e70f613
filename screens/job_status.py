"""The job screen's status lines, as markup: the job (backend, name, state, elapsed time, its
Studio link, the last problem), the log on display (size, lines, how fresh, the follower's
phase, follow or paused, wrap, search, filter, errors, where it was saved), and what changed
about that log's path while it was followed; and the poller that asks for the status.

The lines are pure functions of what the screen knows: the screen redraws them every second
and after every change. The poller runs in the screen's thread worker.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual.markup import escape
from textual.worker import get_current_worker

from tui.backends.base import JobHandle, JobState, JobStatus
from tui.core.words import clock, counted
from tui.logs.follower import FollowerState
from tui.logs.names import rank_logs
from widgets.rank_strip import size_words

if TYPE_CHECKING:
    from tui.backends.base import Backend
    from tui.core.prices import PlanPrice
    from tui.logs.progress import ProgressTracker
    from tui.logs.sources import LogSource
    from widgets.log_view import LogView

SOURCES_EVERY = 10
"""Look for new logs (system logs, late ranks) every this many status polls."""

STATE_COLOR = {
    JobState.QUEUED: "$text-muted",
    JobState.STARTING: "$warning",
    JobState.RUNNING: "$success",
    JobState.COMPLETED: "$success",
    JobState.FAILED: "$error",
    JobState.CANCELED: "$warning",
    JobState.UNKNOWN: "$text-muted",
}
"""The colour of each state's word (theme variables)."""


LAUNCHER_LOGS = ("system_logs/launcher", "system_logs/lifecycler")
"""Where a launcher says how each process ended (here: the supervisor's log; Azure ML: the
lifecycler's): shown when the failed rank's own log is empty."""


def launcher_log(names: Iterable[str]) -> str | None:
    """The launcher's log among a job's logs, if it has one."""
    return next((n for n in names if n.startswith(LAUNCHER_LOGS)), None)


def known_empty(source: object, seen: object) -> bool:
    """Whether a log is known to hold nothing (a rank killed before it printed, by SIGKILL or
    the OOM killer): a file here is asked; a remote one, the size the rank strip last saw
    (`seen`, its `RankState`, or None)."""
    path = getattr(source, "path", None)
    if isinstance(path, Path):
        try:
            return path.stat().st_size == 0
        except OSError:
            return False
    return getattr(seen, "size", None) == 0


def empty_log_note(rank: str, launcher: str | None) -> str:
    """The outcome line's words when the failed rank's log is empty (killed before it printed:
    SIGKILL, the OOM killer): where the evidence is instead of "at its first error"."""
    said = f" · {escape(rank)}'s log is empty (it printed nothing before it ended)"
    if launcher is None:
        return said + "; the evidence is the exit above and the job's system logs"
    return said + f"; showing {escape(launcher)}, where the launcher says how it ended"


def elapsed(status: JobStatus, first_data_at: datetime | None = None) -> float | None:
    """One clock for the job: from its start (else from its first log bytes, else from its
    submission, while it waits) to its end, or to now while it runs. An ended job's time is
    rounded up, so it never reads less than the running clock showed a moment before."""
    ended = status.ended_at
    if first_data_at is not None and ended is not None and first_data_at > ended:
        first_data_at = None  # an ended job opened later: its log's bytes say nothing of when
    origin = status.started_at or first_data_at or status.created_at
    if origin is None:
        return None
    if ended is not None:
        return math.ceil(max(0.0, (ended - origin).total_seconds()))
    return (datetime.now(origin.tzinfo) - origin).total_seconds()


def poll_status(
    backend: Backend,
    handle: JobHandle,
    interval: float,
    received: Callable[[JobStatus, dict[str, LogSource]], None],
    failed: Callable[[str], None],
) -> None:
    """Ask for the job's status every `interval` s (and, now and then, for logs not seen yet)
    until it has ended or the thread worker this runs in is cancelled; each answer goes to
    `received` (the status, the new logs), each error's words to `failed`."""
    worker = get_current_worker()
    known: set[str] = set()
    polls = 0
    while not worker.is_cancelled:
        try:
            status = backend.status(handle)
            new: dict[str, LogSource] = {}
            if not rank_logs(known) or polls % SOURCES_EVERY == 0 or status.is_terminal:
                found = backend.log_sources(handle)
                new = {name: src for name, src in found.items() if name not in known}
                known.update(new)
        except Exception as err:  # shown on the status line; the poller keeps going
            failed(f"{type(err).__name__}: {err}")
        else:
            received(status, new)
            if status.is_terminal:
                return
        polls += 1
        deadline = time.monotonic() + interval
        while not worker.is_cancelled and time.monotonic() < deadline:
            time.sleep(min(0.05, interval))


def cost_line(
    price: PlanPrice | None,
    status: JobStatus | None,
    first_data_at: datetime | None,
    tracker: ProgressTracker,
) -> str | None:
    """`cost ≈ $12.34 so far · ≈ $56.78 to finish (…)`: the job's clock (from its start) and
    the training's ETA (the shown log's `tracker`), times the price of its nodes; None without
    a price or a status."""
    if price is None or status is None:
        return None
    started = status.started_at or first_data_at
    took = elapsed(status, first_data_at) if started else None
    standing = tracker.standing()
    eta = standing.eta if standing.eta_scope == "training" else None
    return price.cost_words(took, eta, status.is_terminal)


def stall_line(
    price: PlanPrice | None, status: JobStatus | None, tracker: ProgressTracker
) -> str | None:
    """`no step for 12:00 · ≈ $10.88 since · S: every rank's stack`: a running job whose shown
    log's step has stood still longer than its rhythm allows (`ProgressTracker.stalled`), and
    what the nodes have cost meanwhile at the plan's price; None while it moves or has ended."""
    if status is None or status.is_terminal or (still := tracker.stalled()) is None:
        return None
    from tui.core.prices import money

    hourly = price.dedicated if price is not None else None
    cost = f" · ≈ {money(hourly * still / 3600)} since" if hourly is not None else ""
    return f"no step for {clock(still)}{cost} · S: every rank's stack"


def outcome_line(status: JobStatus, first_data_at: datetime | None = None) -> str:
    """The ended job's line, as it starts: its summary in its state's colour, and how long it
    ran (when it ran at all: a job canceled in the queue has no running time)."""
    text = f"[{STATE_COLOR[status.state]}]{escape(status.summary())}[/]"
    took = elapsed(status, first_data_at)
    ran = status.started_at is not None or first_data_at is not None
    return text + f" after {clock(took)}" if took is not None and ran else text


def job_line(
    handle: JobHandle,
    status: JobStatus | None,
    problem: str | None,
    log_has_data: bool,
    first_data_at: datetime | None = None,
) -> str:
    """The job: backend, name, state and elapsed time, Azure's word, the Studio link, a problem.
    `first_data_at`: when its log's first bytes came (a start the backend has not reported)."""
    parts = [f"[b]{escape(handle.backend)}[/b]", f"[b]{escape(handle.name)}[/b]"]
    if status is None:
        parts.append("[$text-muted]asking for the status…[/]")
    else:
        shown = status.state
        if shown in (JobState.QUEUED, JobState.STARTING) and log_has_data:
            shown = JobState.RUNNING  # its processes write logs: the backend lags behind
        state = f"[{STATE_COLOR[shown]}]{shown.value}[/]"
        took = elapsed(status, first_data_at if shown is not JobState.QUEUED else None)
        parts.append(f"{state} {clock(took)}" if took is not None else state)
        if not status.is_terminal and status.message:
            # Azure's word when it says more: Preparing, NotResponding, Paused …
            parts.append(f"[$text-muted]{escape(status.message)}[/]")
    if handle.backend == "azureml" and handle.location:
        url = handle.location.replace('"', "%22")
        parts.append(f'[link="{url}"]{escape(url)}[/link]')
    if problem:
        parts.append(f"[$error]{escape(problem)}[/]")
    return " · ".join(parts)


def log_line(
    title: str,
    state: FollowerState,
    view: LogView,
    *,
    ended: bool,
    head_fill: tuple[int, int] | None,
    saved_path: Path | None,
) -> str:
    """The log on display (`title`): what the follower read, and what the view shows of it."""
    parts = [
        f"[b]{escape(title)}[/b]",
        f"{size_words(state.bytes_received)} · {counted(view.line_count, 'line')}",
    ]
    age = state.seconds_since_data()
    if age is not None and not ended:
        # An ended job's log gets no more data: how long ago it was read says nothing.
        parts.append(f"data {_ago(age)} ago")
    parts.append(_phase(state))
    if state.rewrites:
        parts.append("[$warning]rewritten at the source: read again from the start[/]")
    if head_fill is not None:
        done, end = head_fill
        parts.append(f"[$accent]opened at its end · reading the rest {100 * done // end}%[/]")
    parts.append("[$success]FOLLOW[/]" if view.follow else "[$warning]PAUSED[/]")
    if view.wrap:
        parts.append("wrap")
    if view.search_query:
        count = view.match_count
        where = f"{view.match_number or '-'}/{count}" if count is not None else "searching…"
        if count is None and (done := view.search_progress):
            where += f" {100 * done:.0f}%"
        parts.append(f"/{escape(view.search_query)} {where}")
    if view.filter_query:
        parts.append(f"&{escape(view.filter_query)}: {counted(view.shown_count, 'line')}")
    if view.error_count:
        n = view.error_count
        parts.append(f"[$error]{counted(n, 'error')}[/]")
    if saved_path:
        parts.append(f"saved {escape(saved_path.name)}")
    return " · ".join(parts)


def path_line(whose: str, state: FollowerState, change: str | None) -> str | None:
    """That the log's path was deleted or `change`d on disk while the job writes on (None while
    it was not): its lines still come, from the file the job opened. `whose`: `rank 3's log`."""
    if state.notice is None:
        return None
    if change is None:  # a source that says it only in words
        return f"[$warning]{escape(state.notice)}[/]"
    return f"[$warning]{escape(whose)} was {change} on disk; following the file the job writes[/]"


def _phase(state: FollowerState) -> str:
    if state.phase == "retrying":
        wait = f" in {state.retry_in:.0f} s" if state.retry_in is not None else ""
        error = escape(state.last_error or "")
        return f"[$warning]retrying{wait} (attempt {state.retries + 1}): {error}[/]"
    if state.phase == "failed":
        return f"[$error]gave up: {escape(state.last_error or '')}[/]"
    return {
        "waiting": "[$text-muted]waiting for the first bytes[/]",
        "following": "receiving",
        "idle": "idle",
        "finished": "complete",
    }[state.phase]


def _ago(seconds: float) -> str:
    if seconds < 60:
        return f"{int(seconds)} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    return f"{seconds / 3600:.1f} h"
