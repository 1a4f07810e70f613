"""`dtrain-tui doctor` and `dtrain-tui metrics` on a 1 GB rank log, against their floors.

Run: .venv/bin/python tests/benchmarks/bench_big_cli.py [--gb 1] [--runs 3] [--metrics-limit 600]

Two logs of `--gb` GB each, written to a temp dir and deleted afterwards:
  - training: what a trainer prints, every line a step (`step N | loss … | lr … | grad_norm …
    | tokens/s …`, four metrics), a DataLoader warning every 500 lines, and a CUDA
    out-of-memory traceback at the end (bench_doctor.py's lines, 10,000 of them repeated);
  - words: bench_log_view.write_big_log's 100-byte lines of shuffled metric words and two
    numbers, the 1 GB log the other big-log benchmarks and issue 27 measure.
Each command runs as its own process (its output to /dev/null), as a user runs it, beside its
floor on the same file in the same run: `grep -c Error` (reads every byte once). Prints wall
seconds, CPU seconds and peak RSS (ru_maxrss: a mapped file's pages count in it) with the
ratio to the floor; targets (issue 27): doctor within 5 × grep -c; metrics < 30 s and < 200 MB.
A metrics run longer than `--metrics-limit` seconds is stopped and said so. No pass/fail.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from bench_doctor import NOISE, OOM, STEP  # noqa: E402
from bench_log_view import write_big_log  # noqa: E402

TRAINING_STEP = STEP.replace("tokens/s 12345", "tokens/s {tps}")


def write_training_log(path: Path, gigabytes: float) -> None:
    lines = []
    for i in range(10_000):
        if i % 500 == 1:
            lines.append(NOISE)
        else:
            line = TRAINING_STEP.format(
                m=i // 6000 % 60, s=i // 100 % 60, ms=i % 1000, i=i, loss=2.0 - i / 1e4,
                tps=12000 + i % 997,
            )  # fmt: skip
            lines.append(line)
    block = "".join(lines).encode()
    target = int(gigabytes * (1 << 30))
    with path.open("wb") as f:
        written = 0
        while written < target:
            f.write(block)
            written += len(block)
        f.write(OOM.encode())


def run(argv: list[str], limit: float | None = None) -> dict[str, float]:
    """One process: wall and CPU seconds, peak RSS in MB; `stopped` when it ran past `limit`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    stopped = 0.0
    while True:
        pid, _, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if limit is not None and time.perf_counter() - t > limit:
            proc.kill()
            stopped = 1.0
            _, _, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.002)
    wall = time.perf_counter() - t
    proc.returncode = 0  # reaped here
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,
        "stopped": stopped,
    }


def product(command: str, path: Path) -> list[str]:
    return [sys.executable, "-m", "tui", command, str(path)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gb", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--metrics-limit", type=float, default=600.0)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; medians of {args.runs} runs")
    with tempfile.TemporaryDirectory(prefix="bench-big-cli-") as tmp:
        os.environ["DTRAIN_TUI_HOME"] = tmp
        logs = {"training": Path(tmp, "training.log"), "words": Path(tmp, "words.log")}
        write_training_log(logs["training"], args.gb)
        write_big_log(logs["words"], args.gb)
        for name, path in logs.items():
            size = path.stat().st_size
            doctor, grep = [], []
            for _ in range(args.runs):
                doctor.append(run(product("doctor", path)))
                grep.append(run(["grep", "-c", "Error", str(path)]))
            wall = statistics.median(
                d["wall"] / g["wall"] for d, g in zip(doctor, grep, strict=True)
            )
            med = {k: statistics.median(d[k] for d in doctor) for k in ("wall", "cpu", "rss")}
            floor = statistics.median(g["wall"] for g in grep)
            print(
                f"{name} log, {size / 1e9:.2f} GB: doctor {med['wall']:.2f} s "
                f"(CPU {med['cpu']:.2f} s, peak RSS {med['rss']:.0f} MB), "
                f"grep -c {floor:.2f} s: {wall:.2f}x  (target ≤ 5x)"
            )
            got = run(product("metrics", path), limit=args.metrics_limit)
            grep_once = run(["grep", "-c", "Error", str(path)])["wall"]
            said = f"stopped after {args.metrics_limit:.0f} s" if got["stopped"] else "done"
            print(
                f"{name} log: metrics {got['wall']:.1f} s ({said}; CPU {got['cpu']:.1f} s, "
                f"{size / 1e6 / got['wall']:.0f} MB/s), peak RSS {got['rss']:.0f} MB; grep -c "
                f"{grep_once:.2f} s: {got['wall'] / grep_once:.0f}x  (target < 30 s, < 200 MB)"
            )


if __name__ == "__main__":
    main()
