"""Log view benchmarks: ingest rate and event-loop lag, append-to-screen latency, RSS on 1 GB.

Run: .venv/bin/python tests/benchmarks/bench_log_view.py [--seconds 8] [--gb 1] [--skip rss]

(a) ingest: a headless app with a `LogView` (50k-line window) fed 2,500 lines of ~85 characters
    every 50 ms (50k lines/s, one `append()` per batch as the job screen does per poll) for
    `--seconds`; a 10 ms heartbeat measures event-loop lag. Target: p99 lag under 50 ms.
(b) latency: the real `JobScreen` (default poll timing) follows a `FileSource` while another
    process appends to the file at random gaps of 50 ms to 1 s; each marker line carries the
    time it was written, and the screen notes when it first draws it. Target: p95 under 1.5 s.
(c) RSS: the `JobScreen` reads a 1 GB log (generated in a temp dir, deleted afterwards) from
    start to end; RSS of the whole process is sampled every 50 ms. Target: under 150 MB.

(b) and (c) use a stand-in backend (status and one FileSource), since the figures are about
the screen and the follower, not about launching a job. Prints figures; no pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from textual.app import App, ComposeResult  # noqa: E402

from screens.job import JobScreen  # noqa: E402
from tui.backends.base import JobHandle, JobState, JobStatus  # noqa: E402
from tui.logs.sources import FileSource  # noqa: E402
from widgets.log_view import LogView  # noqa: E402

LOG = "user_logs/std_log_process_0.txt"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def sample_lines(n: int) -> list[str]:
    rng = random.Random(1)
    words = ["epoch", "step", "loss", "lr", "grad_norm", "throughput", "samples/s", "tokens"]
    return [
        f"[rank {i % 8}] {' '.join(rng.choices(words, k=6))} {i} {rng.random():.6f}".ljust(85, ".")
        for i in range(n)
    ]


class Heartbeat:
    """Event-loop lag: how late a 10 ms sleep wakes up."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task | None = None

    async def _beat(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - t - 0.01)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._beat())

    def stop(self) -> None:
        if self._task:
            self._task.cancel()


# ---- (a) ----------------------------------------------------------------------------------


class IngestApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LogView(window=50_000)


async def ingest(seconds: float, rate: int = 50_000, tick: float = 0.05) -> dict[str, float]:
    per_tick = int(rate * tick)
    pool = sample_lines(100_000)
    app = IngestApp()
    proc = psutil.Process()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(LogView)
        beat = Heartbeat()
        beat.start()
        cpu0, t0 = proc.cpu_times(), time.perf_counter()
        sent = 0
        k = 0
        while time.perf_counter() - t0 < seconds:
            k += 1
            start = sent % len(pool)
            batch = pool[start : start + per_tick]
            view.append(batch)
            sent += len(batch)
            delay = t0 + k * tick - time.perf_counter()
            await asyncio.sleep(max(0.0, delay))
        elapsed = time.perf_counter() - t0
        cpu1 = proc.cpu_times()
        await pilot.pause(0.1)
        beat.stop()
        shown_last = view.visible_lines()[-1] == view.store.line(view.line_count - 1)
        lags = beat.lags
    return {
        "lines/s": sent / elapsed,
        "cpu %": 100 * ((cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)) / elapsed,
        "lag p50 ms": 1000 * statistics.median(lags),
        "lag p99 ms": 1000 * percentile(lags, 99),
        "lag max ms": 1000 * max(lags),
        "newest line on screen": float(shown_last),
    }


# ---- (b) and (c): the job screen over a file ----------------------------------------------


class FileJob:
    """A stand-in backend: one job whose rank 0 log is `path`; `ended` makes it Completed."""

    name = "bench"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.ended = threading.Event()

    def status(self, job: JobHandle) -> JobStatus:
        return JobStatus(JobState.COMPLETED if self.ended.is_set() else JobState.RUNNING)

    def log_sources(self, job: JobHandle) -> dict[str, FileSource]:
        return {LOG: FileSource(self.path, LOG)}

    def submit(self, plan):  # pragma: no cover - not used
        raise NotImplementedError

    def cancel(self, job: JobHandle) -> None:
        self.ended.set()


class ScreenApp(App[None]):
    def __init__(self, backend: FileJob) -> None:
        super().__init__()
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(JobScreen(self.backend, JobHandle("bench", "bench")))


WRITER = """
import random, sys, time
path, markers, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
with open(path, "a", encoding="utf-8") as f:
    for i in range(markers):
        time.sleep(rng.uniform(0.05, 1.0))
        for j in range(rng.randint(0, 10)):  # so every marker stays on screen for a frame
            f.write(f"filler {i} {j} " + "." * 60 + "\\n")
        f.write(f"MARK {i} {time.time():.6f}\\n")
        f.flush()
"""


async def latency(markers: int) -> dict[str, float]:
    seen: dict[int, float] = {}
    original = LogView.render_line

    def render_line(self: LogView, y: int):
        strip = original(self, y)
        text = strip.text
        if text.startswith("MARK "):
            _, i, written = text.split()[:3]
            seen.setdefault(int(i), time.time() - float(written))
        return strip

    LogView.render_line = render_line  # observe what is drawn, without changing it
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "rank0.log")
            path.write_text("")
            backend = FileJob(path)
            app = ScreenApp(backend)
            async with app.run_test(size=(120, 40)) as pilot:
                writer = subprocess.Popen(
                    [sys.executable, "-c", WRITER, str(path), str(markers), "7"]
                )
                while writer.poll() is None:
                    await pilot.pause(0.05)
                await pilot.pause(3.5)  # the slowest idle poll, then a frame
                backend.ended.set()
                await pilot.pause(1.5)
    finally:
        LogView.render_line = original
    values = list(seen.values())
    return {
        "markers drawn": float(len(values)),
        "of": float(markers),
        "median s": statistics.median(values),
        "p95 s": percentile(values, 95),
        "max s": max(values),
    }


def write_big_log(path: Path, gigabytes: float) -> int:
    """Write ~`gigabytes` of 100-byte lines fast (1 MB blocks); the byte count."""
    lines = sample_lines(10_000)
    block = ("\n".join(line[:99].ljust(99) for line in lines) + "\n").encode()
    target = int(gigabytes * (1 << 30))
    written = 0
    with path.open("wb") as f:
        while written < target:
            f.write(block)
            written += len(block)
    return written


async def rss(gigabytes: float) -> dict[str, float]:
    proc = psutil.Process()
    tmp = tempfile.mkdtemp(prefix="bench-log-")
    path = Path(tmp, "rank0.log")
    try:
        t = time.perf_counter()
        size = write_big_log(path, gigabytes)
        generated = time.perf_counter() - t
        backend = FileJob(path)
        backend.ended.set()  # all of it is there: the follower reads to the end and stops
        peak = [proc.memory_info().rss]
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                peak.append(proc.memory_info().rss)
                time.sleep(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        before = proc.memory_info().rss
        sampler.start()
        app = ScreenApp(backend)
        async with app.run_test(size=(120, 40)) as pilot:
            beat = Heartbeat()
            beat.start()
            t = time.perf_counter()
            await pilot.pause(0.2)
            screen = app.screen
            assert isinstance(screen, JobScreen)
            while screen.follower is None or screen.follower.state.phase != "finished":
                await pilot.pause(0.2)
            took = time.perf_counter() - t
            beat.stop()
            view = screen.query_one(LogView)
            lines = view.line_count
            spool = view.store.size
            shown_last = view.visible_lines()[-1] == view.store.line(lines - 1)
        stop.set()
        sampler.join()
        return {
            "log MB": size / (1 << 20),
            "generated in s": generated,
            "read in s": took,
            "MB/s": size / (1 << 20) / took,
            "lines": float(lines),
            "spool equals log": float(spool == size),
            "newest line on screen": float(shown_last),
            "RSS before MB": before / (1 << 20),
            "RSS peak MB": max(peak) / (1 << 20),
            "lag p99 ms": 1000 * percentile(beat.lags, 99),
            "lag max ms": 1000 * max(beat.lags),
        }
    finally:
        path.unlink(missing_ok=True)
        os.rmdir(tmp)


def show(title: str, figures: dict[str, float]) -> None:
    print(f"\n{title}")
    for key, value in figures.items():
        print(f"  {key:<24} {value:,.2f}" if value % 1 else f"  {key:<24} {value:,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--markers", type=int, default=40)
    parser.add_argument("--gb", type=float, default=1.0)
    parser.add_argument("--skip", action="append", default=[], choices=("ingest", "latency", "rss"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-home-") as home:
        os.environ["DTRAIN_TUI_HOME"] = home  # spools go here, and go with it
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
        if "ingest" not in args.skip:
            figures = asyncio.run(ingest(args.seconds))
            show("(a) view ingest at 50k lines/s (target: lag p99 < 50 ms)", figures)
        if "latency" not in args.skip:
            figures = asyncio.run(latency(args.markers))
            show("(b) append to screen through FileSource (target: p95 < 1.5 s)", figures)
        if "rss" not in args.skip:
            figures = asyncio.run(rss(args.gb))
            show(f"(c) following a {args.gb:g} GB log (target: RSS < 150 MB)", figures)


if __name__ == "__main__":
    main()
