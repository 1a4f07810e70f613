"""Following a growing append blob in real Azurite, directly and through a fault-injecting proxy."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path

import httpx

from tests.logs.azurite import AppendBlob
from tests.logs.fault_proxy import FAULTS, FaultProxy, Request
from tests.logs.test_assembler import reference
from tui.logs.follower import LogFollower, LogUpdate, Timing
from tui.logs.sources import FileSource, HttpRangeSource, LogSource

FAST = Timing(min_interval=0.005, max_interval=0.02, backoff_base=0.002, backoff_max=0.02)


class Recorded:
    """Wraps a source; keeps every byte the follower consumed and checks they are contiguous."""

    def __init__(self, inner: LogSource) -> None:
        self.inner = inner
        self.name = inner.name
        self.received = bytearray()

    async def read(self, offset: int, limit: int | None = None) -> bytes:
        data = await self.inner.read(offset, limit)
        if data:
            assert offset == len(self.received), "a read skipped or repeated bytes"
            self.received += data
        return data

    async def size(self) -> int | None:
        return await self.inner.size()


async def append(blob: AppendBlob, data: bytes) -> None:
    await asyncio.to_thread(blob.append, data)


async def until_received(source: Recorded, size: int, timeout: float = 60.0) -> None:
    """Wait until the follower has consumed `size` bytes (a ceiling far above a poll's 20 ms)."""
    async with asyncio.timeout(timeout):
        while len(source.received) < size:
            await asyncio.sleep(0.005)


def lines_of(updates: list[LogUpdate]) -> list[str]:
    return [line for update in updates for line in update.lines]


async def test_a_growing_append_blob_arrives_byte_for_byte(blob: AppendBlob) -> None:
    rocket = "🚀".encode()
    appends = [
        b"epoch 1/3 starting\n",
        b"a line split ",
        b"across two appends\n",
        "multi-byte: naïve 中文 ".encode() + rocket[:2],
        rocket[2:] + b" split inside a character\n",
        b"train:  10%|#    | 1/10\r",
        b"train:  60%|###  | 6/10\rtrain: 100%|#####| 10/10",
        b"\r\n",
        b"windows line\r\n",
        b"",
        b"Training finished; final line without newline",
    ]
    done = asyncio.Event()
    source = Recorded(HttpRangeSource(blob.url_provider, name="std_log_process_0.txt"))
    follower = LogFollower(source, done=done, timing=FAST)
    progress_seen: list[str] = []

    async def write() -> None:
        written = 0
        for data in appends:
            if data:
                await append(blob, data)
                written += len(data)
            # The next append only once the follower has read this one, however slow the
            # machine: each shows up as the blob grows, not all at the end.
            await until_received(source, written)
        done.set()

    async def follow() -> list[LogUpdate]:
        updates = []
        async for update in follower:
            updates.append(update)
            progress_seen.append(update.partial)
        return updates

    updates, _ = await asyncio.gather(follow(), write())
    content = blob.content()
    assert bytes(source.received) == content == b"".join(appends)
    assert (
        lines_of(updates)
        == reference(content)
        == [
            "epoch 1/3 starting",
            "a line split across two appends",
            "multi-byte: naïve 中文 🚀 split inside a character",
            "train: 100%|#####| 10/10",
            "windows line",
            "Training finished; final line without newline",
        ]
    )
    assert "train:  60%|###  | 6/10" not in lines_of(updates)  # redraws collapsed
    assert "a line split " in progress_seen  # a UI could show the partial line meanwhile
    assert len(updates) > 4  # lines came as the blob grew, not all at the end
    assert follower.state.phase == "finished"
    assert follower.state.bytes_received == len(content)
    assert follower.state.total_retries == 0


async def test_a_local_file_is_followed_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "std_log_process_0.txt"
    done = asyncio.Event()

    async def write() -> None:
        for data in [b"one\ntw", b"o\n", "三\n".encode()[:1], "三\n".encode()[1:], b"end"]:
            with path.open("ab") as f:
                f.write(data)
            await asyncio.sleep(0.02)
        done.set()

    lines, _ = await asyncio.gather(
        LogFollower(FileSource(path), done=done, timing=FAST).collect(), write()
    )
    assert lines == ["one", "two", "三", "end"]


def make_line(seq: int, rng: random.Random) -> tuple[bytes, str]:
    """One numbered log line in one of several shapes: its bytes, and the line a reader sees."""
    tag = f"{seq:06d}"
    shape = seq % 5
    if shape == 0:
        text = f"{tag} step loss={rng.random():.6f} " + "x" * rng.randint(0, 120)
        return f"{text}\n".encode(), text
    if shape == 1:
        text = f"{tag} ünïcödé 中文字符 🚀✓ é"
        return f"{text}\n".encode(), text
    if shape == 2:
        states = [f"{tag} epoch: {p:3d}%|{'#' * (p // 10):10}|" for p in (10, 40, 70, 100)]
        return ("\r".join(states) + "\n").encode(), states[-1]
    if shape == 3:
        text = f"{tag} NCCL INFO Channel 00/02 : 0[0] -> 1[1] via P2P/IPC"
        return f"{text}\r\n".encode(), text
    return f"{tag}\n".encode(), tag


async def test_no_line_is_lost_or_repeated_over_500_injected_faults(blob: AppendBlob) -> None:
    rng = random.Random(5)
    weights = {fault: 1.0 for fault in FAULTS}
    weights.update(drop_mid_body=4, truncated_body=4, sas_expired=2)
    del weights["stall"]
    kinds, kind_weights = list(weights), list(weights.values())

    requests = 0

    def choose(request: Request) -> str | None:
        nonlocal requests
        requests += 1
        if requests % 300 == 0:
            return "stall"  # costs the client's read timeout each: two, not a share
        roll = rng.random()
        if roll < 0.7:
            return rng.choices(kinds, kind_weights)[0]
        return "ignore_range" if roll < 0.75 else None

    done = asyncio.Event()
    async with (
        FaultProxy(blob.azurite.port, choose) as proxy,
        # Azurite answers in milliseconds; 2 s is far above that on a loaded machine, and a
        # stall costs exactly this long.
        httpx.AsyncClient(timeout=httpx.Timeout(2.0)) as client,
    ):

        async def fresh_url() -> str:
            return proxy.rewrite(blob.sas_url())

        http = HttpRangeSource(fresh_url, client, name="std_log_process_0.txt")
        source = Recorded(http)
        timing = Timing(
            min_interval=0.002,
            max_interval=0.01,
            backoff_base=0.001,
            backoff_max=0.01,
            final_retries=200,
            max_read=4096,  # several reads per burst: more chances to break one
        )
        follower = LogFollower(source, done=done, timing=timing)
        expected: list[str] = []

        async def write() -> None:
            pending, seq = b"", 0
            while proxy.faults < 520:
                while len(pending) < 400:
                    data, line = make_line(seq, rng)
                    pending += data
                    expected.append(line)
                    seq += 1
                cut = rng.randint(1, 400)  # appends cut lines and characters anywhere
                await append(blob, pending[:cut])
                pending = pending[cut:]
                await asyncio.sleep(0.005 + rng.random() * 0.01)  # leave Azurite time to read
            tail = f"{seq:06d} final line, no newline".encode()
            expected.append(tail.decode())
            await append(blob, pending + tail)
            done.set()

        updates, _ = await asyncio.gather(_collect(follower), write())

    content = blob.content()
    received = lines_of(updates)
    numbers = [int(line[:6]) for line in received]
    duplicated = [n for n, count in Counter(numbers).items() if count > 1]
    lost = sorted(set(range(len(expected))) - set(numbers))
    assert proxy.faults >= 500, proxy.injected
    assert (lost, duplicated) == ([], [])
    assert numbers == list(range(len(expected)))
    assert received == expected
    assert bytes(source.received) == content
    assert follower.state.phase == "finished"
    # Every kind of fault happened, a good share of them while log bytes were in flight, and
    # every injected SAS expiry was answered with a fresh URL.
    assert set(proxy.injected) == set(FAULTS), proxy.injected
    assert proxy.faults_on_data >= 50
    assert http.url_refreshes >= proxy.injected["sas_expired"]
    assert proxy.ignored_ranges > 0
    print(
        f"\n{proxy.faults} faults {dict(proxy.injected)}; {proxy.faults_on_data} on data; "
        f"{proxy.requests} requests; {len(expected)} lines, {len(content)} bytes; "
        f"{http.url_refreshes} URL refreshes; {follower.state.total_retries} retries"
    )


async def test_retry_after_from_the_server_is_honoured(blob: AppendBlob) -> None:
    blob.append(b"before\n")
    faults = iter(["status_503", "status_429"])

    def choose(request: Request) -> str | None:
        return next(faults, None)

    delays: list[float] = []

    async def sleep(delay: float) -> None:
        delays.append(delay)

    async with FaultProxy(blob.azurite.port, choose, retry_after="2") as proxy:

        async def fresh_url() -> str:
            return proxy.rewrite(blob.sas_url())

        async with HttpRangeSource(fresh_url) as source:
            follower = LogFollower(source, done=lambda: True, timing=FAST, sleep=sleep)
            assert await follower.collect() == ["before"]
    assert delays == [2.0, 2.0]
    assert follower.state.total_retries == 2
    assert "HTTP 429" in (follower.state.last_error or "")


async def _collect(follower: LogFollower) -> list[LogUpdate]:
    return [update async for update in follower]
