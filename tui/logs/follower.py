"""Following one growing log: poll a `LogSource` by byte offset, hand out complete lines per poll.

How a UI consumes it (an async exclusive worker; cancelling the worker stops the follower):

    follower = LogFollower(source, done=job_finished)  # an asyncio.Event or a callable
    async for update in follower:                      # one update per poll that changed anything
        view.append_lines(update.lines)                # a batch, possibly empty
        view.show_progress(update.partial)             # the unfinished line / live progress bar
        status.show(update.state)                      # bytes, lines, retries, last error ...

A log that is rewritten rather than appended to (some `system_logs/` files are) is read again from
its start: the update that says so has `restart` set, and a consumer drops every line it showed
before taking that update's lines. Old and new text are never mixed.

The iteration ends after the job is done and a final read has found nothing more; the last update
carries the flushed final line and `state.phase == "finished"` (or "failed" when the final read
kept failing). `follower.state` is live too, for a timer that shows the age of the last data.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Literal

from tui.logs.assembler import LineAssembler
from tui.logs.sources import LogSource, SourceError, TransientError

REWRITE_CHECK = 256
"""Bytes before the offset compared again when the source's version changed (see `_rewritten`)."""
Phase = Literal["waiting", "following", "idle", "retrying", "finished", "failed"]
DoneSignal = asyncio.Event | Callable[[], bool | Awaitable[bool]]


@dataclass(frozen=True)
class Timing:
    """How often to poll and how to back off; tests pass tiny values to run fast."""

    min_interval: float = 0.5
    """Seconds between polls while data flows."""
    max_interval: float = 3.0
    """The slowest idle polling gets."""
    idle_factor: float = 1.5
    """Each empty poll stretches the interval by this much, up to `max_interval`."""
    backoff_base: float = 0.5
    """The first retry's delay; doubled per consecutive failure, with jitter."""
    backoff_max: float = 30.0
    """The longest delay between retries that the follower picks itself."""
    retry_after_max: float = 120.0
    """A server's `Retry-After` is honoured up to this many seconds."""
    final_retries: int = 10
    """Once the job is done, how many failed final reads to tolerate before giving up."""
    max_read: int = 8 << 20
    """Bytes per read; a full read means more is waiting, so the next read follows at once."""


@dataclass
class FollowerState:
    """What a status line shows about one followed log."""

    source: str
    phase: Phase = "waiting"
    """waiting (no bytes yet), following (data last poll), idle, retrying, finished, failed."""
    bytes_received: int = 0
    """Also the offset of the next read."""
    lines: int = 0
    """Complete lines delivered so far."""
    requests: int = 0
    """Reads attempted (a 403 answered with a fresh URL counts once)."""
    last_data_at: float | None = None
    """`time.monotonic()` when bytes last arrived."""
    poll_interval: float = 0.0
    retries: int = 0
    """Consecutive failed reads right now; 0 when healthy."""
    total_retries: int = 0
    last_error: str | None = None
    """The latest failure's text (kept after recovery; `retries == 0` says it passed)."""
    retry_in: float | None = None
    """While retrying: the delay before the next attempt, in seconds."""
    rewrites: int = 0
    """How many times the log was found rewritten and read again from its start."""
    notice: str | None = None
    """What changed about the log's path while it was followed (a local log deleted or
    replaced: its file is followed on, see `FileSource.moved`); shown once."""

    def seconds_since_data(self, now: float | None = None) -> float | None:
        """Age of the last data, for "last data 12 s ago"; None before any data."""
        if self.last_data_at is None:
            return None
        return (time.monotonic() if now is None else now) - self.last_data_at


@dataclass(frozen=True)
class LogUpdate:
    """One poll's worth of news: lines to append (a batch), the live partial line, the status."""

    lines: list[str]
    partial: str
    state: FollowerState
    """A snapshot, safe to keep."""
    restart: bool = False
    """The log was rewritten: drop every line shown so far; `lines` start it again."""


class LogFollower:
    """Follows one `LogSource` from `offset` until `done`, yielding a `LogUpdate` per poll.

    Offsets advance only by the bytes a successful read returned, so retries, dropped
    connections and URL refreshes can neither skip nor repeat a byte. Polls come every
    `min_interval` while data flows and stretch to `max_interval` when idle. Failed reads are
    retried with exponential backoff and jitter, never sooner than a `Retry-After`.

    `done` is an `asyncio.Event` or a callable (sync or async) returning True once the log
    will not grow any more (the job reached a terminal state); after it, the follower reads
    until nothing is left, flushes the last line and stops. Without `done` it follows until
    the iteration is cancelled or closed.

    `offset` resumes a log already partly shown; it should be the end of a complete line
    (lines delivered so far), since bytes before it are never read.
    """

    def __init__(
        self,
        source: LogSource,
        *,
        done: DoneSignal | None = None,
        offset: int = 0,
        timing: Timing | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.source = source
        self.timing = timing or Timing()
        self.state = FollowerState(
            source=source.name, bytes_received=offset, poll_interval=self.timing.min_interval
        )
        self._done = done
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._assembler = LineAssembler()
        self._running = False
        self._tail = b""
        """The last REWRITE_CHECK bytes delivered, to tell a rewritten log from a grown one."""
        self._version: str | None = None

    def __aiter__(self) -> AsyncIterator[LogUpdate]:
        return self.updates()

    async def updates(self) -> AsyncIterator[LogUpdate]:
        """The updates, as described on the class. A follower can be iterated once."""
        if self._running:
            raise RuntimeError("a LogFollower can be iterated only once")
        self._running = True
        state, timing = self.state, self.timing
        finishing = False
        while True:
            # Asked before the read: a log that is done before a read starts is whole in it.
            # Once done, always done (a status callable may flicker; the job does not restart).
            finishing = finishing or await self._is_done()
            state.requests += 1
            try:
                data = await self.source.read(state.bytes_received, timing.max_read)
                rewritten = await self._rewritten(state.bytes_received)
            except SourceError as err:
                delay = self._failed(err)
                if finishing and state.retries > timing.final_retries:
                    yield self._finish("failed")
                    return
                yield self._update([])
                await self._sleep(delay)
                continue

            previous_phase = state.phase
            state.retries, state.retry_in = 0, None
            notice = getattr(self.source, "moved", None)
            noticed = notice is not None and notice != state.notice
            state.notice = notice or state.notice
            if rewritten:
                yield self._restart()
                continue  # read it again from the start at once
            if data:
                self._tail = (self._tail + data[-REWRITE_CHECK:])[-REWRITE_CHECK:]
                lines = self._assembler.feed(data)
                state.bytes_received += len(data)
                state.lines += len(lines)
                state.last_data_at = time.monotonic()
                state.phase = "following"
                state.poll_interval = timing.min_interval
                yield self._update(lines)
                if len(data) >= timing.max_read or finishing:
                    continue  # more is waiting, or a final read must come back empty
            else:
                if finishing:
                    yield self._finish("finished")
                    return
                state.poll_interval = min(
                    timing.max_interval, state.poll_interval * timing.idle_factor
                )
                state.phase = "idle" if state.last_data_at is not None else "waiting"
                if state.phase != previous_phase or noticed:
                    yield self._update([])
            await self._pause(state.poll_interval)

    async def collect(self) -> list[str]:
        """Every line until done, for scripts and tests (`dtrain-tui logs` without --follow)."""
        lines: list[str] = []
        async for update in self:
            lines.extend(update.lines)
        return lines

    def _failed(self, err: SourceError) -> float:
        """Record a failed read; the delay before the next attempt."""
        state, timing = self.state, self.timing
        state.retries += 1
        state.total_retries += 1
        state.last_error = str(err)
        state.phase = "retrying"
        backoff = min(timing.backoff_max, timing.backoff_base * 2 ** (state.retries - 1))
        delay = backoff * (0.5 + 0.5 * self._rng.random())  # jitter: followers don't march in step
        retry_after = err.retry_after if isinstance(err, TransientError) else None
        if retry_after is not None:
            delay = max(delay, min(retry_after, timing.retry_after_max))
        state.retry_in = delay
        return delay

    async def _rewritten(self, offset: int) -> bool:
        """Whether the log was rewritten since the bytes before `offset` were read.

        It shrank below the offset (the source's `total`), or its `version` changed (a block
        blob's ETag) and the last bytes delivered are no longer what is stored before the
        offset. An append blob's ETag changes on every append, so its version is its creation
        time instead; the byte check costs one small read, only when the version changed.
        Sources without `total` / `version` (attributes, both optional) are never checked.
        """
        source = self.source
        total = getattr(source, "total", None)
        version = getattr(source, "version", None)
        previous = self._version
        if offset > 0 and total is not None and total < offset:
            return True
        if offset > 0 and self._tail and previous and version and version != previous:
            before = await source.read(offset - len(self._tail), len(self._tail))
            if before != self._tail:
                return True
        self._version = version
        return False

    def _restart(self) -> LogUpdate:
        """Forget everything read so far; the next read starts the log again."""
        state = self.state
        state.bytes_received = 0
        state.lines = 0
        state.rewrites += 1
        state.poll_interval = self.timing.min_interval
        self._assembler = LineAssembler()
        self._tail = b""
        self._version = None
        return LogUpdate([], "", replace(state), restart=True)

    def _finish(self, phase: Phase) -> LogUpdate:
        lines = self._assembler.flush()
        self.state.lines += len(lines)
        self.state.phase = phase
        self.state.retry_in = None
        return self._update(lines)

    def _update(self, lines: list[str]) -> LogUpdate:
        return LogUpdate(lines, self._assembler.partial, replace(self.state))

    async def _is_done(self) -> bool:
        done = self._done
        if done is None:
            return False
        if isinstance(done, asyncio.Event):
            return done.is_set()
        result = done()
        if inspect.isawaitable(result):
            result = await result
        return bool(result)

    async def _pause(self, delay: float) -> None:
        """Sleep between polls; an `asyncio.Event` for `done` cuts the sleep short."""
        if isinstance(self._done, asyncio.Event):
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._done.wait(), delay)
        else:
            await self._sleep(delay)
