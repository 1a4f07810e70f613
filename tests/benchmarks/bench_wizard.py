"""Wizard speed: process start to the first frame, and the review re-render at 128 × 8 ranks.

Run: .venv/bin/python tests/benchmarks/bench_wizard.py   (prints its figures; no pass/fail)
Targets: first frame under 0.5 s on a 2-core machine; review re-render under 50 ms.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PROBE = """
import sys
from tui.app import DtrainApp
class Probe(DtrainApp):
    def on_ready(self):
        sys.__stderr__.write("READY\\n")
        sys.__stderr__.flush()
        self.exit()
Probe(backends={}).run(headless=True)
"""


def first_frame(runs: int = 9) -> list[float]:
    """Seconds from spawning the process to its first frame (`on_ready`), exit not included."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", PROBE],
            env=env,
            cwd=ROOT,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
        )
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.strip() == b"READY":
                out.append(time.perf_counter() - t)
                break
        proc.wait()
    return out


async def review_rerender(runs: int = 15) -> tuple[list[float], list[float]]:
    from tui.app import DtrainApp
    from tui.core.spec import JobSpec

    app = DtrainApp(
        JobSpec(nodes=128, gpus_per_node=8, launch="per_node"), review=True, backends={}
    )
    compute, paint, idle = [], [], []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        for i in range(runs):
            t = time.perf_counter()
            await pilot.pause()  # the test harness's own cost of waiting for an idle app
            idle.append(time.perf_counter() - t)
            t = time.perf_counter()
            app.spec = app.spec.with_changes(nodes=127 + i % 2)
            screen.render_plan(app.current_plan())
            compute.append(time.perf_counter() - t)
            await pilot.pause()
            paint.append(time.perf_counter() - t)
    # Painting = change-then-idle minus idle-with-nothing-to-do.
    return compute, [p - i for p, i in zip(paint, idle, strict=True)]


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    ff = first_frame()
    print(
        f"process start → first frame of the wizard: median {statistics.median(ff):.3f} s, "
        f"best {min(ff):.3f} s, worst {max(ff):.3f} s  (target < 0.5 s)"
    )
    compute, paint = asyncio.run(review_rerender())
    print(
        f"review re-render at 128 × 8 = 1,024 ranks after a change: "
        f"plan + widgets median {statistics.median(compute) * 1000:.1f} ms "
        f"(p95 {sorted(compute)[int(len(compute) * 0.95) - 1] * 1000:.1f} ms), "
        f"with layout and paint median {statistics.median(paint) * 1000:.1f} ms  (target < 50 ms)"
    )


if __name__ == "__main__":
    main()
