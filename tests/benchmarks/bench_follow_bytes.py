"""Benchmark: what following a growing log costs, ours (HTTP Range) against the SDK's way.

    .venv/bin/python tests/benchmarks/bench_follow_bytes.py [--appends 2000] [--append-bytes 10000]

Starts its own Azurite (`bash tests/setup.sh` installs it), grows an append blob to 20 MB in
2,000 appends (100 lines of 100 bytes each, one append every 10 ms), and follows it at the same
time in two ways, both counting the response body bytes they fetch:

- ours: `LogFollower` over `HttpRangeSource` with the default timing (0.5 s while data flows,
  up to 3 s idle), asking only for bytes it has not seen;
- the SDK's approach (`jobs.stream()`, azure-ai-ml 1.35.2): a plain GET of the whole file each
  poll, on its schedule `max(2, int(60 / (1 + 100 * exp(-t / 20))))` seconds.

It prints both totals against the log size, what whole-file GETs would have cost at our cadence,
and the latency from an append (its start) to its lines being delivered, median and p95. Exit
status 1 if ours fetched more than 5% over the log size.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.logs.azurite import Azurite  # noqa: E402
from tui.logs.follower import LogFollower, Timing  # noqa: E402
from tui.logs.sources import HttpRangeSource, LogSource  # noqa: E402

LINE_BYTES = 100


class CountingTransport(httpx.AsyncBaseTransport):
    """Counts requests and response body bytes as they come off the wire."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.requests = 0
        self.body_bytes = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        body = await response.aread()
        await response.aclose()
        self.requests += 1
        self.body_bytes += len(body)
        return httpx.Response(response.status_code, headers=response.headers, content=body)

    async def aclose(self) -> None:
        await self._inner.aclose()


class SizesSeen:
    """Wraps our source to note the log size at each poll (what a whole-file GET would fetch)."""

    def __init__(self, inner: LogSource) -> None:
        self.inner = inner
        self.name = inner.name
        self.whole_file_bytes = 0

    async def read(self, offset: int, limit: int | None = None) -> bytes:
        data = await self.inner.read(offset, limit)
        self.whole_file_bytes += offset + len(data)
        return data

    async def size(self) -> int | None:
        return await self.inner.size()


def sdk_wait(elapsed: float) -> int:
    """azure-ai-ml's `_wait_before_polling` with its defaults (MIN 2 s, MAX 60 s)."""
    return max(2, int(60 / (1 + 100 * math.exp(-elapsed / 20))))


def make_append(index: int, lines_per_append: int) -> bytes:
    out = bytearray()
    for n in range(lines_per_append):
        head = f"{index * lines_per_append + n:08d} rank0 step {index} loss=0.{index:04d} "
        out += head.encode().ljust(LINE_BYTES - 1, b"x") + b"\n"
    return bytes(out)


def seq_of(line: bytes | str) -> int:
    return int(line[:8])


async def run(appends: int, append_bytes: int, period: float) -> int:
    lines_per_append = append_bytes // LINE_BYTES
    with tempfile.TemporaryDirectory() as tmp, Azurite(Path(tmp)) as azurite:
        blob = azurite.append_blob()
        done = asyncio.Event()
        appended_at: list[float] = []
        ours_at: dict[int, float] = {}
        sdk_at: dict[int, float] = {}

        async def write() -> float:
            start = time.perf_counter()
            for i in range(appends):
                data = make_append(i, lines_per_append)
                appended_at.append(time.perf_counter())
                await asyncio.to_thread(blob.append, data)
                delay = start + (i + 1) * period - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            done.set()
            return time.perf_counter() - start

        ours_transport = CountingTransport()
        ours_client = httpx.AsyncClient(transport=ours_transport, timeout=60)
        source = SizesSeen(HttpRangeSource(blob.url_provider, ours_client, name="bench"))
        follower = LogFollower(source, done=done, timing=Timing())

        async def follow() -> None:
            async for update in follower:
                now = time.perf_counter()
                for line in update.lines:
                    seq = seq_of(line)
                    if seq % lines_per_append == lines_per_append - 1:
                        ours_at[seq // lines_per_append] = now

        sdk_transport = CountingTransport()
        sdk_client = httpx.AsyncClient(transport=sdk_transport, timeout=120)

        async def sdk_way() -> int:
            polls, started, seen = 0, time.perf_counter(), 0
            while True:
                finished = done.is_set()
                await asyncio.sleep(sdk_wait(time.perf_counter() - started))
                body = (await sdk_client.get(blob.sas_url())).content
                now = time.perf_counter()
                polls += 1
                complete = body[: body.rfind(b"\n") + 1]
                if complete:
                    last = seq_of(complete[complete.rfind(b"\n", 0, -1) + 1 :])
                    for index in range(seen, (last + 1) // lines_per_append):
                        sdk_at[index] = now
                    seen = (last + 1) // lines_per_append
                if finished or done.is_set():
                    return polls

        duration, _, sdk_polls = await asyncio.gather(write(), follow(), sdk_way())
        await ours_client.aclose()
        await sdk_client.aclose()
        size = len(blob.content())

    ours_lat = [ours_at[i] - appended_at[i] for i in range(appends) if i in ours_at]
    sdk_lat = [sdk_at[i] - appended_at[i] for i in range(appends) if i in sdk_at]
    ratio = ours_transport.body_bytes / size
    print(f"log: {size:,} bytes in {appends:,} appends over {duration:.1f} s")
    print(
        f"ours (Range, {follower.timing.min_interval}-{follower.timing.max_interval} s polls): "
        f"{ours_transport.body_bytes:,} bytes in {ours_transport.requests} requests "
        f"= {ratio:.4f} x log size ({(ratio - 1) * 100:+.2f}%)"
    )
    print(
        f"SDK approach (whole file, its 2-59 s schedule): {sdk_transport.body_bytes:,} bytes "
        f"in {sdk_polls} polls = {sdk_transport.body_bytes / size:.2f} x log size"
    )
    print(
        f"whole file at our cadence ({ours_transport.requests} polls): "
        f"{source.whole_file_bytes:,} bytes = {source.whole_file_bytes / size:.1f} x log size"
    )
    print(f"append->line latency, ours: {summary(ours_lat)} (n={len(ours_lat)})")
    print(f"append->line latency, SDK approach: {summary(sdk_lat)} (n={len(sdk_lat)})")
    ok = ratio <= 1.05 and len(ours_lat) == appends
    print("PASS" if ok else "FAIL", "ours within 5% of the log size, every append delivered")
    return 0 if ok else 1


def summary(latencies: list[float]) -> str:
    if not latencies:
        return "none"
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return f"median {statistics.median(ordered):.3f} s, p95 {p95:.3f} s, max {ordered[-1]:.3f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--append-bytes", type=int, default=10_000)
    parser.add_argument("--period", type=float, default=0.01, help="seconds between appends")
    args = parser.parse_args()
    return asyncio.run(run(args.appends, args.append_bytes, args.period))


if __name__ == "__main__":
    raise SystemExit(main())
