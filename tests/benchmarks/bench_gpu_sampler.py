"""What the GPU sampler costs a rank per minute at its default 30 s: one sample's formatting and
write (from a real two-GPU reading), and starting a program the way it starts `nvidia-smi`
(`/bin/true` stands in: the rank pays for the start, nvidia-smi's own work runs in its process).

    .venv/bin/python tests/benchmarks/bench_gpu_sampler.py
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from tui.injob.dtrain_tui_gpus import line, parse_csv

CSV = (Path(__file__).parents[1] / "injob" / "data" / "nvidia_smi" / "two_gpus.csv").read_text()
PER_MINUTE = 60 / 30


def main() -> None:
    null = os.open(os.devnull, os.O_WRONLY)
    n = 2000
    start = time.process_time()
    for i in range(n):
        os.write(null, (line("0", 1_700_000_000 + i, parse_csv(CSV)) + "\n").encode())
    write = (time.process_time() - start) / n
    runs = 50
    start = time.perf_counter()
    for _ in range(runs):
        subprocess.run(["/bin/true"], capture_output=True, text=True, check=True)
    spawn = (time.perf_counter() - start) / runs
    print(f"parse + format + write one sample: {write * 1e6:.1f} µs CPU")
    print(f"start one program and read its output: {spawn * 1e3:.2f} ms wall (the sampler thread)")
    print(f"per minute at 30 s: {(write + spawn) * PER_MINUTE * 1e3:.2f} ms in the sampler thread")


if __name__ == "__main__":
    main()
