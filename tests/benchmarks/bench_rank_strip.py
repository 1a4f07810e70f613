"""Benchmark: what watching 1,024 ranks' logs costs per poll; how soon a stalled rank is flagged.

    .venv/bin/python tests/benchmarks/bench_rank_strip.py [--ranks 1024] [--line-every 8]
        [--poll 2] [--budget 64] [--stall-at 30]

Starts its own Azurite (`bash tests/setup.sh` installs it) with one append blob per rank
(`…/user_logs/std_log_process_N.txt`); a writer appends a ~100-byte line to every rank's log
every `--line-every` s, except the stalled rank after `--stall-at` s. Three watchers poll at the
same time, each feeding its own `RankWatch`:

- listing: one List Blobs call per poll (what the artifact datastore gives: every blob's size);
- backend listing: the same through the Azure ML backend's own code (`LogFolder.sizes()`, what
  `AzureMLBackend.log_sizes()` calls each poll: azure-storage-blob's `list_blobs`);
- HEAD: `SizePoller`'s budgeted round-robin of HEAD requests over Run History-style SAS URLs,
  `--budget` per poll.

Prints, per watcher: requests per poll, bytes per poll (response headers and bodies), and the
seconds from the stalled rank's last line to its flag.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from azure.storage.blob import (  # noqa: E402
    ContainerClient,
    ContainerSasPermissions,
    generate_container_sas,
)

from tests.logs.azurite import DEV_ACCOUNT, DEV_KEY, Azurite  # noqa: E402
from tui.backends.azureml.logs import LogFolder  # noqa: E402
from tui.logs.rank_watch import RankWatch, SizePoller  # noqa: E402
from tui.logs.sources import HttpRangeSource  # noqa: E402

PREFIX = "ExperimentRun/dcid.bench/user_logs/"
_BLOB = re.compile(r"<Name>([^<]+)</Name>.*?<Content-Length>(\d+)</Content-Length>", re.S)


class Meter:
    """Counts requests and response bytes (headers + body) through an httpx client's hooks."""

    def __init__(self) -> None:
        self.requests = 0
        self.bytes = 0

    def on_blob_response(self, pipeline_response) -> None:
        """azure-core's `raw_response_hook`: the same count for azure-storage-blob's calls."""
        response = pipeline_response.http_response
        self.requests += 1
        self.bytes += sum(len(k) + len(v) + 4 for k, v in response.headers.items())
        self.bytes += len(response.body())

    async def on_response(self, response: httpx.Response) -> None:
        await response.aread()
        self.requests += 1
        self.bytes += sum(len(k) + len(v) + 4 for k, v in response.headers.raw)
        self.bytes += len(response.content)


def container_sas(container: str) -> str:
    now = datetime.now(timezone.utc)
    return generate_container_sas(
        DEV_ACCOUNT,
        container,
        account_key=DEV_KEY,
        permission=ContainerSasPermissions(read=True, list=True),
        start=now - timedelta(minutes=5),
        expiry=now + timedelta(hours=2),
    )


async def watch(name, poll_once, watch: RankWatch, stall: dict, args, meter, out) -> None:
    polls = false_polls = 0
    start = time.monotonic()
    while time.monotonic() - start < args.limit:
        sizes = await poll_once()
        now = time.monotonic()
        watch.observe(sizes, now)
        polls += 1
        verdict = watch.verdict(now)
        stalled = now - start >= args.stall_at + args.line_every
        others = [r for r in verdict.suspects if r != args.stalled]
        false_polls += bool(others or verdict.all_silent)
        if args.stalled in verdict.suspects and stalled and stall.get("last") is not None:
            out[name] = {
                "polls": polls,
                "requests/poll": meter.requests / polls,
                "bytes/poll": meter.bytes / polls,
                "flag after": now - stall["last"],
                "threshold": verdict.threshold,
                "polls with a wrong flag": false_polls,
            }
            return
        await asyncio.sleep(max(0.0, args.poll - (time.monotonic() - now)))
    out[name] = {
        "polls": polls,
        "requests/poll": meter.requests / max(1, polls),
        "bytes/poll": meter.bytes / max(1, polls),
        "flag after": None,
    }


def writer(blobs, args, stall: dict, stop: asyncio.Event, loop) -> None:
    start = time.monotonic()
    with ThreadPoolExecutor(16) as pool:
        step = 0
        while not stop.is_set():
            t0 = time.monotonic()
            stalled = t0 - start >= args.stall_at
            line = f"step {step} loss {1 / (step + 1):.4f} {'x' * 70}\n".encode()
            todo = [b for r, b in enumerate(blobs) if not (stalled and r == args.stalled)]
            list(pool.map(lambda b, data=line: b.append_block(data, length=len(data)), todo))
            if not stalled:
                stall["last"] = time.monotonic()
            step += 1
            took = time.monotonic() - t0
            stall.setdefault("append_seconds", []).append(took)
            time.sleep(max(0.0, args.line_every - took))


async def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--ranks", type=int, default=1024)
    p.add_argument("--line-every", type=float, default=8.0)
    p.add_argument("--poll", type=float, default=2.0)
    p.add_argument("--budget", type=int, default=64)
    p.add_argument("--stall-at", type=float, default=30.0)
    p.add_argument("--stalled", type=int, default=517)
    p.add_argument("--limit", type=float, default=400.0)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Azurite(Path(tmp)) as azurite:
        service = azurite.service()
        container = service.create_container("bench")
        blobs = []
        for r in range(args.ranks):
            client = container.get_blob_client(f"{PREFIX}std_log_process_{r}.txt")
            client.create_append_blob()
            blobs.append(client)
        names = {r: f"user_logs/std_log_process_{r}.txt" for r in range(args.ranks)}
        sas = container_sas("bench")
        base = f"{azurite.endpoint}/bench"

        list_meter, head_meter = Meter(), Meter()
        list_client = httpx.AsyncClient(event_hooks={"response": [list_meter.on_response]})
        head_client = httpx.AsyncClient(
            event_hooks={"response": [head_meter.on_response]},
            limits=httpx.Limits(max_connections=32),
        )

        async def listed() -> dict[str, int]:
            url = f"{base}?restype=container&comp=list&prefix={PREFIX}&maxresults=5000&{sas}"
            body = (await list_client.get(url)).text
            return {n[len(PREFIX) - len("user_logs/") :]: int(s) for n, s in _BLOB.findall(body)}

        def url_for(r: int) -> str:
            return f"{base}/{PREFIX}std_log_process_{r}.txt?{sas}"

        sources = {
            names[r]: HttpRangeSource(
                lambda r=r: asyncio.sleep(0, url_for(r)), head_client, name=names[r], url=url_for(r)
            )
            for r in range(args.ranks)
        }
        sdk_meter = Meter()
        folder = LogFolder(
            ContainerClient(
                azurite.endpoint,
                "bench",
                credential=sas,
                raw_response_hook=sdk_meter.on_blob_response,
            ),
            PREFIX.removesuffix("/user_logs/"),
        )

        async def sdk_listed() -> dict[str, int]:
            return await asyncio.to_thread(folder.sizes)

        listing = SizePoller(names, lister=listed)
        backend_listing = SizePoller(names, lister=sdk_listed)
        heads = SizePoller(names, sources, budget=args.budget)
        stall: dict = {}
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        writing = loop.run_in_executor(None, writer, blobs, args, stall, stop, loop)
        out: dict = {}
        await asyncio.gather(
            watch(
                "listing (1 List Blobs/poll)",
                listing.poll,
                RankWatch(poll_interval=args.poll),
                stall,
                args,
                list_meter,
                out,
            ),
            watch(
                "backend listing (LogFolder.sizes: list_blobs/poll)",
                backend_listing.poll,
                RankWatch(poll_interval=args.poll),
                stall,
                args,
                sdk_meter,
                out,
            ),
            watch(
                f"HEAD round-robin ({args.budget}/poll)",
                heads.poll,
                RankWatch(poll_interval=args.poll),
                stall,
                args,
                head_meter,
                out,
            ),
        )
        stop.set()
        await writing
        await list_client.aclose()
        await head_client.aclose()
        folder.close()
    appends = stall.get("append_seconds", [0])
    print(
        f"{args.ranks} ranks, a line per rank every {args.line_every} s (all appends took "
        f"median {statistics.median(appends):.2f} s), poll every {args.poll} s, rank "
        f"{args.stalled} stalls at {args.stall_at} s"
    )
    for name, r in out.items():
        flag = f"{r['flag after']:.1f} s" if r.get("flag after") is not None else "never"
        print(
            f"  {name}: {r['requests/poll']:.0f} requests/poll, "
            f"{r['bytes/poll'] / 1024:.1f} KB/poll, stalled rank flagged {flag} after its "
            f"last line (threshold {r.get('threshold', 0):.0f} s, {r['polls']} polls, "
            f"polls with another rank flagged: {r.get('polls with a wrong flag')})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
