"""LogFollower over in-memory sources: polling pace, backoff, final read, exactly-once offsets."""

from __future__ import annotations

import asyncio
import random

import pytest

from tui.logs.follower import LogFollower, LogUpdate, Timing
from tui.logs.sources import SourceError, TransientError

FAST = Timing(min_interval=0.001, max_interval=0.004, backoff_base=0.001, backoff_max=0.004)


class GrowingLog:
    """An in-memory log that a test appends to, with failures it can queue up."""

    name = "std_log_process_0.txt"

    def __init__(self, data: bytes = b"") -> None:
        self.data = bytearray(data)
        self.failures: list[SourceError] = []
        self.reads: list[tuple[int, int | None]] = []

    async def read(self, offset: int, limit: int | None = None) -> bytes:
        self.reads.append((offset, limit))
        if self.failures:
            raise self.failures.pop(0)
        end = len(self.data) if limit is None else offset + limit
        return bytes(self.data[offset:end])

    async def size(self) -> int | None:
        return len(self.data)


class Sleeps:
    """An injected sleep that records delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        await asyncio.sleep(0)


async def test_lines_arrive_in_batches_and_the_last_line_is_flushed_when_done() -> None:
    log = GrowingLog(b"a\nb\nc")
    done = asyncio.Event()
    updates: list[LogUpdate] = []
    async for update in LogFollower(log, done=done, timing=FAST):
        updates.append(update)
        if update.lines == ["a", "b"]:
            assert update.partial == "c"
            log.data += b"d\ne\n"
            done.set()
    lines = [line for update in updates for line in update.lines]
    assert lines == ["a", "b", "cd", "e"]
    assert updates[0].lines == ["a", "b"]  # one batch per read, not one call per line
    final = updates[-1].state
    assert final.phase == "finished"
    assert final.bytes_received == len(log.data)
    assert final.lines == 4


async def test_a_line_without_newline_at_the_end_is_delivered() -> None:
    log = GrowingLog(b"epoch 1\nTraining finished")
    assert await LogFollower(log, done=lambda: True, timing=FAST).collect() == [
        "epoch 1",
        "Training finished",
    ]


async def test_done_before_the_read_still_reads_everything_written_before_it() -> None:
    log = GrowingLog()
    checks = 0

    async def finished() -> bool:
        nonlocal checks
        checks += 1
        if checks == 3:  # the job writes its last words and ends between two polls
            log.data += b"last words\n"
            return True
        return False

    assert await LogFollower(log, done=finished, timing=FAST).collect() == ["last words"]


async def test_transient_failures_are_retried_and_no_byte_is_lost_or_repeated() -> None:
    log = GrowingLog(b"0\n1\n")
    failures = [
        TransientError("reset"),
        SourceError("HTTP 403 with a fresh URL"),
        TransientError("x"),
    ]
    log.failures = list(failures)
    sleeps = Sleeps()
    follower = LogFollower(log, done=lambda: len(log.reads) > 8, timing=FAST, sleep=sleeps)
    updates = [update async for update in follower]
    assert [line for u in updates for line in u.lines] == ["0", "1"]
    retrying = [u.state for u in updates if u.state.phase == "retrying"]
    assert [s.retries for s in retrying] == [1, 2, 3]
    assert retrying[1].last_error == "HTTP 403 with a fresh URL"
    assert follower.state.retries == 0 and follower.state.total_retries == 3
    assert {offset for offset, _limit in log.reads} == {0, 4}


async def test_backoff_doubles_with_jitter_and_honours_retry_after() -> None:
    log = GrowingLog()
    log.failures = [TransientError("busy") for _ in range(5)] + [
        TransientError("throttled", retry_after=9.0)
    ]
    sleeps = Sleeps()
    timing = Timing(backoff_base=1.0, backoff_max=8.0)
    follower = LogFollower(
        log, done=lambda: not log.failures, timing=timing, sleep=sleeps, rng=random.Random(1)
    )
    await follower.collect()
    delays = sleeps.delays
    for attempt, delay in enumerate(delays[:5]):
        backoff = min(8.0, 2.0**attempt)
        assert backoff / 2 <= delay <= backoff
    assert delays[4] >= 4.0  # capped at backoff_max, jitter keeps at least half
    assert delays[5] == 9.0  # Retry-After wins over a shorter backoff


async def test_retry_after_is_capped() -> None:
    log = GrowingLog()
    log.failures = [TransientError("throttled", retry_after=3600)]
    sleeps = Sleeps()
    timing = Timing(retry_after_max=60.0)
    await LogFollower(log, done=lambda: not log.failures, timing=timing, sleep=sleeps).collect()
    assert sleeps.delays == [60.0]


async def test_polling_is_fast_while_data_flows_and_backs_off_when_idle() -> None:
    log = GrowingLog()
    sleeps = Sleeps()
    timing = Timing(min_interval=0.5, max_interval=3.0, idle_factor=1.5)
    reads = 0

    async def finished() -> bool:
        nonlocal reads
        reads += 1
        if reads == 8:
            log.data += b"burst\n"
        return reads > 12

    await LogFollower(log, done=finished, timing=timing, sleep=sleeps).collect()
    assert sleeps.delays[:6] == pytest.approx([0.75, 1.125, 1.6875, 2.53125, 3.0, 3.0])
    assert sleeps.delays[7] == 0.5  # data arrived: back to the fast pace
    assert sleeps.delays[8] == 0.75


async def test_a_full_read_is_followed_at_once_without_sleeping() -> None:
    log = GrowingLog(b"x" * 25 + b"\n")
    sleeps = Sleeps()
    timing = Timing(max_read=10)
    lines = await LogFollower(log, done=lambda: True, timing=timing, sleep=sleeps).collect()
    assert lines == ["x" * 25]
    assert [offset for offset, _ in log.reads] == [0, 10, 20, 26]
    assert sleeps.delays == []


async def test_a_final_read_that_keeps_failing_gives_up_and_says_so() -> None:
    log = GrowingLog(b"partial")
    log.failures = [TransientError(f"down {i}") for i in range(100)]
    follower = LogFollower(log, done=lambda: True, timing=Timing(final_retries=3), sleep=Sleeps())
    updates = [u async for u in follower]
    assert updates[-1].state.phase == "failed"
    assert updates[-1].state.last_error == "down 3"
    assert updates[-1].lines == []


async def test_an_event_for_done_cuts_an_idle_pause_short() -> None:
    log = GrowingLog(b"a\n")
    done = asyncio.Event()
    timing = Timing(min_interval=3600.0, max_interval=3600.0)  # an hour's pause...
    follower = LogFollower(log, done=done, timing=timing)
    asyncio.get_running_loop().call_later(0.05, done.set)
    # ...that ends with the event: the ceiling is generous, and far below the pause.
    assert await asyncio.wait_for(follower.collect(), 60) == ["a"]


async def test_status_tells_bytes_lines_and_age_of_last_data() -> None:
    log = GrowingLog(b"one\ntwo\n")
    follower = LogFollower(log, done=lambda: True, timing=FAST)
    assert follower.state.phase == "waiting"
    assert follower.state.seconds_since_data() is None
    await follower.collect()
    state = follower.state
    assert (state.bytes_received, state.lines, state.phase) == (8, 2, "finished")
    assert state.last_data_at is not None and state.seconds_since_data() >= 0  # type: ignore[operator]
    assert state.seconds_since_data(now=state.last_data_at + 12.0) == 12.0  # "data 12 s ago"


async def test_following_can_resume_from_an_offset() -> None:
    log = GrowingLog(b"seen\nnew\n")
    assert await LogFollower(log, done=lambda: True, offset=5, timing=FAST).collect() == ["new"]


async def test_a_follower_is_iterated_once() -> None:
    follower = LogFollower(GrowingLog(), done=lambda: True, timing=FAST)
    await follower.collect()
    with pytest.raises(RuntimeError):
        await follower.collect()
