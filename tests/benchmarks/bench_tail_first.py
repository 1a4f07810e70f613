"""Opening a large finished log at its end: time to the last screen, locally and from Azurite.

Run: .venv/bin/python tests/benchmarks/bench_tail_first.py [--gb 1] [--skip local|azurite]

The real `JobScreen` over a stand-in backend whose rank-0 log is a `--gb` GB file (a
`FileSource`), or the same bytes as a block blob in Azurite read through a SAS URL (an
`HttpRangeSource`, as Azure ML's logs are). Measured from pushing the screen: until the log's
last line is drawn at the bottom ("last screen"), and until the rest has been read in behind it
("whole log"). Before tail-first, the last screen came only once the whole log was read
(bench_log_view.py (c): ~11–13 s for 1 GB here). Targets: last screen < 0.5 s locally,
< 1.5 s from Azurite. Prints figures; no pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from bench_log_view import LOG, FileJob, ScreenApp, show, write_big_log  # noqa: E402

from screens.job import JobScreen  # noqa: E402
from tui.logs.sources import HttpRangeSource  # noqa: E402
from widgets.log_view import LogView  # noqa: E402


class BlobJob(FileJob):
    """The stand-in backend with its rank-0 log behind a SAS URL."""

    def __init__(self, url: str) -> None:
        super().__init__(Path(os.devnull))
        self.url = url
        self.ended.set()

    def log_sources(self, job):
        async def provider() -> str:
            return self.url

        return {LOG: HttpRangeSource(provider, name=LOG)}


async def open_at_end(backend, last: str) -> dict[str, float]:
    app = ScreenApp(backend)
    t = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0)
        screen = app.screen
        assert isinstance(screen, JobScreen)
        view = screen.query_one(LogView)
        while view.visible_lines()[-1:] != [last]:
            await pilot.pause(0.005)
        shown = time.perf_counter() - t
        print(f"  last screen after {shown:.2f} s", flush=True)
        while screen.head_fill is not None or view.line_count == 0:
            await pilot.pause(0.1)
        whole = time.perf_counter() - t
        lines = view.line_count
    return {"last screen s": shown, "whole log s": whole, "lines": float(lines)}


def last_line(path: Path) -> str:
    with path.open("rb") as f:
        f.seek(-200, os.SEEK_END)
        return f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1].decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gb", type=float, default=1.0)
    parser.add_argument("--skip", action="append", default=[], choices=("local", "azurite"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-tail-") as tmp:
        os.environ["DTRAIN_TUI_HOME"] = str(Path(tmp, "home"))
        path = Path(tmp, "rank0.log")
        size = write_big_log(path, args.gb)
        last = last_line(path)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, log {size / 2**20:,.0f} MB")
        if "local" not in args.skip:
            backend = FileJob(path)
            backend.ended.set()
            show(
                "local file (target: last screen < 0.5 s)", asyncio.run(open_at_end(backend, last))
            )
        if "azurite" not in args.skip:
            from tests.logs.azurite import Azurite

            with Azurite(Path(tmp, "azurite")) as azurite:
                container = azurite.service().create_container("bench")
                blob = container.get_blob_client(LOG)
                t = time.perf_counter()
                with path.open("rb") as f:
                    blob.upload_blob(f, max_concurrency=4)
                print(f"\nuploaded to Azurite in {time.perf_counter() - t:.1f} s")
                figures = asyncio.run(open_at_end(BlobJob(azurite.sas_url(blob)), last))
                show("Azurite blob over HTTP (target: last screen < 1.5 s)", figures)


if __name__ == "__main__":
    main()
