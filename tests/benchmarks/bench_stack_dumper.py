"""What the stack dumper's watch costs a rank: one look (sys._current_frames() and a tuple), timed
over 2,000 looks. The watch looks at most every 30 s (N = 10 minutes), so under 0.5 ms a look is
under 1 ms a minute (issue 39's budget).

    .venv/bin/python tests/benchmarks/bench_stack_dumper.py
"""

from __future__ import annotations

import contextlib
import importlib.util
import threading
import time
from pathlib import Path

HELPER = Path(__file__).resolve().parents[2] / "tui" / "injob" / "sitecustomize.py"
LOOKS = 2000


def main() -> None:
    spec = importlib.util.spec_from_file_location("dtrain_stacks_probe", HELPER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stamps: list[float] = []

    def sleep(_: float) -> None:  # called once per look: the time between calls is one look
        stamps.append(time.perf_counter())
        if len(stamps) > LOOKS:
            raise SystemExit

    def run() -> None:
        with contextlib.suppress(SystemExit):
            module.watch(10, sleep=sleep)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    per_look = (stamps[-1] - stamps[0]) / (len(stamps) - 1)
    print(f"one look: {per_look * 1e6:.1f} us; at two looks a minute: {per_look * 2e3:.4f} ms/min")


if __name__ == "__main__":
    main()
