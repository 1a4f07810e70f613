"""How long plan() and every export take at 128 nodes × 8 GPUs, and `preview --show env` wall time.

Run: .venv/bin/python tests/benchmarks/bench_plan.py   (prints its figures; no pass/fail)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tui.core.spec import JobSpec  # noqa: E402
from tui.planning.export import to_json, to_yaml  # noqa: E402
from tui.planning.plan import plan  # noqa: E402
from tui.planning.sdk import to_python  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs) * 1000, min(runs) * 1000


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    for launch in ("per_process", "per_node"):
        spec = JobSpec(nodes=128, gpus_per_node=8, launch=launch, env={"NCCL_DEBUG": "INFO"})
        p = plan(spec)
        steps = {
            "plan()": lambda spec=spec: plan(spec),
            "plan() + every rank": lambda spec=spec: list(plan(spec).ranks),
            "to_yaml": lambda p=p: to_yaml(p),
            "to_python": lambda p=p: to_python(p),
            "to_json (every rank)": lambda p=p: to_json(p),
            "plan + all exports": lambda spec=spec: [
                f(plan(spec)) for f in (to_yaml, to_python, to_json)
            ],
        }
        print(
            f"\n128 nodes × 8 GPUs, {launch}: {len(p.ranks)} ranks, "
            f"{sum(len(r.env) for r in p.ranks)} env entries"
        )
        for name, fn in steps.items():
            med, best = timed(fn, 15)
            print(f"  {name:<22} median {med:7.1f} ms   best {best:7.1f} ms")

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in (
        ["preview", "--preset", "pytorch-ddp"],
        ["preview", "--preset", "pytorch-ddp", "--show", "env"],
        ["preview", "--set", "nodes=128", "--show", "env"],
    ):
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-m", "tui", *args], capture_output=True, env=env, check=True
            )
            runs.append(time.perf_counter() - t)
        lines = out.stdout.count(b"\n")
        print(
            f"\ndtrain-tui {' '.join(args)}  (piped, {lines} lines)\n"
            f"  wall median {statistics.median(runs):.3f} s   best {min(runs):.3f} s"
        )


if __name__ == "__main__":
    main()
