"""How far, how long, how much: each job's progress, ETA, cost and stall, for the jobs list and
`dtrain-tui jobs` (no Textual here; it blocks on disk or network: call it from a thread).

A job's main log (rank 0's, else the lowest rank's) is read from its end, at most `TAIL` bytes,
with the progress parser (`tui.logs.progress.ProgressTracker`); what was read is kept per job,
so a log that has not grown costs one `stat` and a log that grew is read from where the last
read stopped. A job that had ended when its log was read is not read again. A job's status (its
times, for the cost) is the caller's where it has it whole (this machine's), else asked of its
backend only when the listing's state for it changed (Azure ML's: `jobs.list` says the state).

What is shown is only what the log proves: the step of a total only where the log prints the
total, an ETA only then (and only while the job runs and moves), a stall by the job screen's own
rule (`ProgressTracker.stalled`). The price is the plan's VM size here (its record) or the job's
cluster's on Azure ML, at the price snapshot (`tui.core.prices`); no size, no cost.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui.backends.base import JobHandle, JobState, JobStatus
from tui.core.words import clock
from tui.logs.assembler import LineAssembler
from tui.logs.names import default_log, log_for_rank
from tui.logs.progress import ProgressTracker

TAIL = 256 << 10
"""Bytes read at most from a log's end (and at most of what it grew by since the last read)."""
STALL_MARK = "⏸"
"""Put before a stalled job's progress."""


@dataclass(frozen=True)
class JobProgress:
    """Where one job stands, as far as its log and its record prove."""

    step: int | None = None
    total: int | None = None
    epoch: float | None = None
    epochs: int | None = None
    eta: float | None = None
    """Seconds to the end of training: only with a total, while it runs and moves."""
    took: float | None = None
    """Seconds its nodes have run (from its start to its end, or to now)."""
    hourly: float | None = None
    """Its nodes' price per hour (None: no VM size, or no price for it)."""
    stalled: float | None = None
    """Seconds without a step, once longer than its rhythm allows (None: it moves, or ended)."""
    ended: bool = False

    @property
    def cost(self) -> float | None:
        """What its nodes have cost so far (or in all)."""
        if self.hourly is None or self.took is None:
            return None
        return self.hourly * self.took / 3600

    @property
    def to_finish(self) -> float | None:
        """What the rest costs at the ETA (None without one)."""
        if self.hourly is None or self.eta is None:
            return None
        return self.hourly * self.eta / 3600

    def progress_text(self) -> str:
        """`120/500`, else `epoch 3/10`, else `step 1,200`, else `epoch 3`, else ""; a stall
        leads with ⏸."""
        if self.step is not None and self.total is not None:
            text = f"{self.step:,}/{self.total:,}"
        elif self.epoch is not None and self.epochs is not None:
            text = f"epoch {_number(self.epoch)}/{self.epochs}"
        elif self.step is not None:
            text = f"step {self.step:,}"
        elif self.epoch is not None:  # a log that prints only epochs (`epoch 2 loss 0.31`)
            text = f"epoch {_number(self.epoch)}"
        else:
            return ""
        return f"{STALL_MARK} {text}" if self.stalled is not None else text

    def eta_text(self) -> str:
        return clock(self.eta) if self.eta is not None else ""

    def cost_text(self) -> str:
        from tui.core.prices import money

        return money(self.cost) if self.cost is not None else ""

    def to_finish_text(self) -> str:
        from tui.core.prices import money

        return money(self.to_finish) if self.to_finish is not None else ""

    def stall_words(self) -> str:
        """`no step for 12:00 · ≈ $10.88 since` (the job screen's words), or ""."""
        if self.stalled is None:
            return ""
        from tui.core.prices import money

        since = (
            "" if self.hourly is None else f" · ≈ {money(self.hourly * self.stalled / 3600)} since"
        )
        return f"no step for {clock(self.stalled)}{since}"

    def texts(self) -> tuple[str, ...]:
        """What the jobs list shows of it: two progresses with the same texts look the same."""
        return (
            self.progress_text(),
            self.eta_text(),
            self.cost_text(),
            self.to_finish_text(),
            self.stall_words(),
        )

    def to_json(self) -> dict[str, Any]:
        """The same facts for a program: numbers, None where not known."""
        return {
            "step": self.step,
            "total": self.total,
            "epoch": self.epoch,
            "epochs": self.epochs,
            "eta_seconds": _rounded(self.eta, 1),
            "price_per_hour": self.hourly,
            "cost": _rounded(self.cost, 4),
            "cost_to_finish": _rounded(self.to_finish, 4),
            "stalled_seconds": _rounded(self.stalled, 1),
        }


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:g}"


def _rounded(value: float | None, places: int) -> float | None:
    return None if value is None else round(value, places)


def hourly_price(size: str | None, nodes: int | None) -> float | None:
    """`nodes` VMs of `size` per hour, dedicated, at the price snapshot; None without either."""
    if not size:
        return None
    from tui.core.prices import PlanPrice, vm_price

    return PlanPrice(size, nodes or 1, vm_price(size)).dedicated


class _Log:
    """One job's main log as read so far: its parser's state, and where the reading stopped."""

    def __init__(self, name: str, source: Any) -> None:
        self.name = name
        self.source = source
        """Kept where it is a file here; a remote one is asked for afresh at each read (its
        HTTP client is closed after the read)."""
        self.restart()

    def restart(self) -> None:
        """Forget what was read (the log was rewritten from its start)."""
        self.offset = 0
        self.assembler = LineAssembler()
        self.tracker = ProgressTracker(self.name)

    def update(self, size: int, data: bytes, start: int, moved_at: float) -> None:
        """Take the bytes from `start` to `size` (`data`); a jump past where the last read
        stopped drops the first, partial line."""
        if start > self.offset:
            self.assembler = LineAssembler()
            lines = self.assembler.feed(data)[1:]
        else:
            lines = self.assembler.feed(data)
        self.tracker.feed(lines, now=moved_at)
        self.tracker.feed_partial(self.assembler.partial, now=moved_at)
        self.offset = size


class ProgressReader:
    """Each job's `JobProgress`, its log read again only when it grew. Thread-safe: one
    reader may serve the local and the Azure ML listing at once."""

    def __init__(self) -> None:
        self._logs: dict[str, _Log] = {}
        self._statuses: dict[str, tuple[JobState, JobStatus]] = {}
        """Each job's status as last asked, under the listing's state it was asked at."""
        self._ended: set[str] = set()
        """Jobs whose log was read after they ended: it will not grow, nor be read again."""
        self._last: dict[str, JobProgress] = {}
        self._lock = threading.Lock()

    def known(self, key: str) -> JobProgress | None:
        """Job `key`'s progress as last read (no reading; None: never read)."""
        with self._lock:
            return self._last.get(key)

    def read(
        self,
        key: str,
        backend: Any,
        handle: JobHandle,
        state: JobState,
        hourly: float | None = None,
        status: JobStatus | None = None,
    ) -> JobProgress:
        """Where job `handle` stands, `state` being what the listing says of it; `status`: its
        whole status where the caller has it, else the last one asked (asked again only when
        `state` changed). Never raises: a log that cannot be read leaves its fields unknown."""
        log = None
        try:
            if status is None:
                status = self._status(key, backend, handle, state)
            with self._lock:
                log, ended = self._logs.get(key), key in self._ended
            if not ended:
                log = self._advance(key, log, backend, handle)
                if status.is_terminal:
                    with self._lock:
                        self._ended.add(key)
        except Exception:  # no status, an unreadable log: what was read before stands
            if status is None:
                return self._keep(key, JobProgress(hourly=hourly))
        return self._keep(key, _standing(log, status, hourly))

    def _keep(self, key: str, progress: JobProgress) -> JobProgress:
        with self._lock:
            self._last[key] = progress
        return progress

    def _status(self, key: str, backend: Any, handle: JobHandle, state: JobState) -> JobStatus:
        """The job's status as last asked, asked again when the listing's `state` is not the
        one it was asked at (or a running job's start time is not known yet)."""
        with self._lock:
            asked_at, status = self._statuses.get(key, (None, None))
        if (
            status is None
            or asked_at is not state
            or (state is JobState.RUNNING and status.started_at is None)
        ):
            status = backend.status(handle)
            with self._lock:
                self._statuses[key] = (state, status)
        return status

    def _advance(self, key: str, log: _Log | None, backend: Any, handle: JobHandle) -> _Log | None:
        """`log` (made on first sight) with what its log gained since the last read."""
        source = log.source if log is not None else None
        if not isinstance(getattr(source, "path", None), Path):
            sources = backend.log_sources(handle)
            name = log.name if log is not None else log_for_rank(sources, 0) or default_log(sources)
            if name is None or name not in sources:
                return log
            source = sources[name]
            if log is None:
                with self._lock:
                    log = self._logs.setdefault(key, _Log(name, source))
            log.source = source
        path = getattr(source, "path", None)
        if isinstance(path, Path):
            info = path.stat()
            size = info.st_size
            moved_at = time.monotonic() - max(0.0, time.time() - info.st_mtime)
            if size < log.offset:
                log.restart()
            if size > log.offset:
                start = max(log.offset, size - TAIL)
                with path.open("rb") as f:
                    f.seek(start)
                    log.update(size, f.read(size - start), start, moved_at)
        else:
            size, start, data = asyncio.run(_remote(source, log.offset))
            if size < log.offset:  # rewritten: read afresh next time (this client is closed)
                log.restart()
                return log
            if size > log.offset:
                log.update(size, data, start, time.monotonic())
        return log


async def _remote(source: Any, offset: int) -> tuple[int, int, bytes]:
    """A remote log's size and its bytes past `offset` (at most `TAIL` of them, from its end);
    its client closed after."""
    try:
        size = await source.size() or 0
        start = max(offset, size - TAIL)
        data = await source.read(start, size - start) if size > offset else b""
        return size, start, data
    finally:
        close = getattr(source, "aclose", None)
        if close is not None:
            await close()


def _standing(log: _Log | None, status: JobStatus, hourly: float | None) -> JobProgress:
    ended = status.is_terminal
    took = status.duration
    if log is None:
        return JobProgress(took=took, hourly=hourly, ended=ended)
    standing = log.tracker.standing()
    stalled = None if ended else log.tracker.stalled()
    eta = standing.eta
    if ended or stalled is not None or standing.total is None or standing.eta_scope != "training":
        eta = None
    return JobProgress(
        standing.step,
        standing.total,
        standing.epoch,
        standing.epochs,
        eta,
        took,
        hourly,
        stalled,
        ended,
    )
