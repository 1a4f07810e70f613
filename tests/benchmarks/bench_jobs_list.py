"""Benchmark: what refreshing a jobs list of 200 local jobs costs, with each job's progress.

    .venv/bin/python tests/benchmarks/bench_jobs_list.py [--jobs 200] [--log-mb 2]

Runs one real local job (1 × 1, rank 0 prints PaddleSeg's real `[TRAIN]` lines from
tests/logs/data/progress/streams.txt, then a `--log-mb` log of them), copies its folder to
`--jobs` jobs, then prints: the thread worker's listing (`local_rows`: what the list waits for
before its first rows), then its progress (`read_progress`) the first time (every log's last
256 KB read) and again with no log changed, and the event loop's part (`JobsScreen.show_rows`)
at 120 and 80 columns: a refresh that changes nothing, and one where every row's progress moved.
No pass/fail: figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

LINE = (
    "2021-03-30 06:56:{s:02d} [INFO]\t[TRAIN] epoch: 1, iter: {i}/500000, loss: 1.7455, "
    "lr: 0.008931, batch_cost: 0.3532, reader_cost: 0.00204, ips: 5.6622 samples/sec | ETA 00:02:35"
)


def make_jobs(root: Path, n: int, log_mb: float) -> object:
    from tests.backends.conftest import local_plan
    from tui.backends.local import LocalBackend
    from tui.core.spec import JobSpec

    backend = LocalBackend(root, gpus=[])
    code = root.parent / "code"
    code.mkdir()
    (code / "train.py").write_text("print('hello', flush=True)\n")
    spec = JobSpec(sku="Standard_NC24ads_A100_v4", nodes=1, gpus_per_node=1, code=str(code),
                   script="train.py")  # fmt: skip
    job = backend.submit(local_plan(spec))
    backend.wait(job, timeout=60)
    folder = Path(job.location)
    lines, size, i = [], 0, 0
    while size < log_mb * (1 << 20):
        i += 20
        line = LINE.format(s=i % 60, i=i)
        lines.append(line)
        size += len(line) + 1
    (folder / "user_logs" / "std_log_process_0.txt").write_text("\n".join(lines) + "\n")
    for k in range(n - 1):
        shutil.copytree(folder, root / f"{folder.name[:-4]}{k:04x}")
    return backend


def timed(fn, repeat: int = 5) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def event_loop_part(backend: object, width: int) -> list[float]:
    from screens.jobs import JobsScreen
    from tests.ui.conftest import make_app

    app = make_app(backends={"local": lambda: backend})
    async with app.run_test(size=(width, 40)) as pilot:
        app.action_jobs()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, JobsScreen)
        while len(screen.rows) < 2 or any(r.progress is None for r in screen.rows.values()):
            await pilot.pause(0.1)
        await pilot.pause(0.5)
        same = timed(screen.show_rows, 10)
        steps = [  # every job n steps further: its progress cell changes each time
            {
                key: replace(row, progress=replace(row.progress, step=row.progress.step + n))
                for key, row in screen.rows.items()
            }
            for n in range(1, 11)
        ]

        def moved() -> None:
            screen.rows = steps.pop(0)
            screen.show_rows()

        return same, timed(moved, 10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--log-mb", type=float, default=2.0)
    args = parser.parse_args()
    from screens.jobs_progress import ProgressReader
    from screens.jobs_rows import local_rows, read_progress

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DTRAIN_TUI_HOME"] = str(Path(tmp) / "home")
        backend = make_jobs(Path(tmp) / "jobs", args.jobs, args.log_mb)
        reader, known = ProgressReader(), {}
        listed = timed(lambda: local_rows(backend, known), 1)[0]
        bare = timed(lambda: local_rows(backend, known))
        rows = local_rows(backend, known)
        first = timed(lambda: read_progress(rows, reader), 1)[0]
        again = timed(lambda: read_progress(rows, reader))
        rows = read_progress(rows, reader)
        print(f"{len(rows)} jobs, rank 0 logs of {args.log_mb} MB each; job 0 shows "
              f"{rows[0].progress.progress_text()!r}")  # fmt: skip
        print(f"worker, rows listed (shown at once): first {listed:.0f} ms, "
              f"again median {statistics.median(bare):.0f} ms")  # fmt: skip
        print(f"worker, then progress: first (every log's end read) {first:.0f} ms, "
              f"again, no log changed, median {statistics.median(again):.0f} ms")  # fmt: skip
        for width in (120, 80):
            same, moved = asyncio.run(event_loop_part(backend, width))
            for what, loop in (("nothing changed", same), ("every row's progress moved", moved)):
                print(f"event loop, show_rows at {width} columns, {what}: median "
                      f"{statistics.median(loop):.1f} ms, max {max(loop):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
