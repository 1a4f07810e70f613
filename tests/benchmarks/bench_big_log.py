"""A 1 GB finished log on this machine: Home, search and the line index against their floors.

Run: .venv/bin/python tests/benchmarks/bench_big_log.py [--gb 1] [--runs 3]

The real `JobScreen` over a stand-in backend whose rank-0 log is a `--gb` GB file (generated
in a temp dir, deleted afterwards) with one marker line in the middle. Each figure is taken
from pushing the screen, with its floor measured in the same run on the same file:
  - last screen: the log's last line drawn at the bottom (floor: `tail -n 40`);
  - Home → line 1: Home pressed as soon as the last screen is drawn, until line 1 is at the
    top (target < 0.3 s; floor: `head -n 40`);
  - search right after opening: a search for the marker started as soon as the last screen is
    drawn, until the marker's line is on screen (target: 2 × `grep -c` + 0.5 s);
  - full index: until the whole log is numbered, from the app's start and from the moment
    the screen opened the log's head (target: 3 × `wc -l`; the index is counted by helper
    processes, one per CPU up to 4, so it is CPU-bound: 2 CPUs count 1 GB in about 0.35 s);
  - the event loop's gaps (p95, max) in the 5 s after the index, while the log's errors and
    the chart's sample are read: what a key press waits for (an idle loop: ~1 ms);
  - peak RSS of the process (the log is read where it lies, not copied into memory).
The waits look at the screen's state every few ms without `pilot.pause` (which has every widget
answer a message each time, work a user's idle terminal never asks for, and which took the
GIL from the index's thread: the index took twice as long while watched that way).
Prints product / floor for each; no pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from bench_log_view import FileJob, ScreenApp, write_big_log  # noqa: E402

from screens.job import JobScreen  # noqa: E402
from widgets.log_view import LogView  # noqa: E402

MARKER = "NEEDLE in the middle of the log"


def make_log(path: Path, gigabytes: float) -> str:
    """The log, with `MARKER` about halfway; its first line."""
    half = path.with_suffix(".half")
    write_big_log(half, gigabytes / 2)
    with path.open("wb") as out:
        for part in (half, None, half):
            if part is None:
                out.write(f"{MARKER}\n".encode())
            else:
                with part.open("rb") as f:
                    while chunk := f.read(16 << 20):
                        out.write(chunk)
    half.unlink()
    with path.open("rb") as f:
        return f.readline().decode().rstrip("\n")


def floor(*argv: str) -> float:
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


async def one_run(path: Path, first: str, action: str) -> dict[str, float]:
    backend = FileJob(path)
    backend.ended.set()
    app = ScreenApp(backend)
    out: dict[str, float] = {}
    t = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0)
        screen = app.screen
        assert isinstance(screen, JobScreen)
        view = screen.query_one(LogView)
        opened = None  # when the screen put the log's head in front: its index starts
        while view.line_count == 0 or view.visible_lines()[-1:] == [""]:
            if opened is None and screen.head_fill is not None:
                opened = time.perf_counter()
            await pilot.pause(0.002)
        out["last screen s"] = time.perf_counter() - t
        opened = opened or time.perf_counter()
        if action == "home":
            t1 = time.perf_counter()
            view.action_top()  # Home's action (pilot.press waits for the app to go idle)
            while view.visible_lines()[:1] != [first] and time.perf_counter() - t1 < 60:
                await asyncio.sleep(0.002)
            out["home s"] = time.perf_counter() - t1
        else:
            t1 = time.perf_counter()
            view.search(MARKER)  # what Enter in the `/` prompt does
            while MARKER not in view.visible_lines() and time.perf_counter() - t1 < 60:
                await asyncio.sleep(0.002)
            out["search hit s"] = time.perf_counter() - t1
        while screen.head_fill is not None and time.perf_counter() - t < 90:
            await asyncio.sleep(0.01)
        out["full index s"] = time.perf_counter() - t
        out["index from opening s"] = time.perf_counter() - opened
        if action == "home":  # what a key waits for while the errors and chart are read
            gaps, last = [], time.perf_counter()
            while time.perf_counter() - out["full index s"] - t < 5:
                await asyncio.sleep(0.001)
                gaps.append(time.perf_counter() - last)
                last += gaps[-1]
            gaps.sort()
            out["after index: loop gap p95 ms"] = gaps[len(gaps) * 95 // 100] * 1000
            out["after index: loop gap max ms"] = gaps[-1] * 1000
        out["lines"] = float(view.line_count)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gb", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-big-") as tmp:
        os.environ["DTRAIN_TUI_HOME"] = tmp
        path = Path(tmp, "rank0.log")
        first = make_log(path, args.gb)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {path.stat().st_size:,} B")
        rows: dict[str, list[float]] = {}
        for _ in range(args.runs):
            for action in ("home", "search"):
                for key, value in asyncio.run(one_run(path, first, action)).items():
                    rows.setdefault(f"{action}: {key}", []).append(value)
            rows.setdefault("wc -l", []).append(floor("wc", "-l", str(path)))
            rows.setdefault("grep -c", []).append(floor("grep", "-c", MARKER, str(path)))
            rows.setdefault("tail -n 40", []).append(floor("tail", "-n", "40", str(path)))
        med = {key: statistics.median(values) for key, values in rows.items()}
        for key, value in med.items():
            print(f"  {key:<28} median {value:8.3f}")
        print("product / floor (medians):")
        last = med["home: last screen s"]
        print(f"  last screen                  {last:.3f} s  (target < 0.5 s)")
        print(f"  Home → line 1                {med['home: home s']:.3f} s  (target < 0.3 s)")
        target = 2 * med["grep -c"] + 0.5
        hit = med["search: search hit s"]
        print(f"  search hit / (2×grep -c+0.5) {hit / target:.2f}  ({hit:.3f} s vs {target:.3f} s)")
        full, own = med["home: full index s"], med["home: index from opening s"]
        print(f"  full index / wc -l           {full / med['wc -l']:.1f}  (from app start)")
        print(f"  index from opening / wc -l   {own / med['wc -l']:.1f}  (target ≤ 3)")
        print(f"  peak RSS                     {psutil.Process().memory_info().rss >> 20} MB")


if __name__ == "__main__":
    main()
