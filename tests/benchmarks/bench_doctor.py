"""Benchmark: the doctor on a big job's logs, and on hostile input. Prints figures; asserts nothing.

    .venv/bin/python tests/benchmarks/bench_doctor.py [--ranks 1024] [--lines 10000]
        [--huge-gb 2]

Writes `--ranks` files `user_logs/std_log_process_N.txt` of `--lines` lines each (~110-byte
training-progress lines with the usual warnings) into a temporary folder: rank 613 dies of a
CUDA out-of-memory error two thirds of the way in, the others go on until a collective times out
and the launcher prints its failure table. Then times `load_path` + `diagnose` (what `dtrain-tui
doctor FOLDER` does) and reports the peak memory the process grew by (`ru_maxrss`).

Then a `--huge-gb` GB file that is one line (written sparse: a short text head, a hole, a text
tail, so no GB is written to disk) and a file of escape sequences only, through the CLI.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tui.cli.commands import main as cli  # noqa: E402
from tui.logs.doctor import diagnose, load_path  # noqa: E402

CULPRIT = 613
STEP = (
    "2024-05-01 10:{m:02d}:{s:02d},{ms:03d} INFO train.py:120] step {i} | loss {loss:.4f} | "
    "lr 3.0e-4 | grad_norm 0.81 | tokens/s 12345\n"
)
NOISE = (
    "/usr/lib/python3.10/site-packages/torch/utils/data/dataloader.py:557: UserWarning: This "
    "DataLoader will create 8 worker processes in total.\n"
)
OOM = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 88, in <module>\n'
    "    loss.backward()\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 5 has a total "
    "capacity of 79.10 GiB of which 1.2 GiB is free.\n"
)
TIMEOUT = (
    "[rank{r}]:[E501 10:50:00.000000 ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum=6671, OpType=ALLREDUCE, NumelIn=4, "
    "NumelOut=4, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.\n"
)


def write_job(folder: Path, ranks: int, lines: int) -> int:
    logs = folder / "user_logs"
    logs.mkdir(parents=True)
    total = 0
    for r in range(ranks):
        out = []
        stop = lines * 2 // 3 if r == CULPRIT else lines
        for i in range(stop):
            out.append(NOISE if i % 500 == 1 else STEP.format(
                m=i // 6000 % 60, s=i // 100 % 60, ms=i % 1000, i=i, loss=2.0 - i / lines
            ))  # fmt: skip
        out.append(OOM if r == CULPRIT else TIMEOUT.format(r=r))
        data = "".join(out)
        (logs / f"std_log_process_{r}.txt").write_text(data)
        total += len(data)
    return total


def write_huge_line(file: Path, gigabytes: float) -> None:
    size = int(gigabytes * (1 << 30))
    with file.open("wb") as f:
        f.write(b"step 1 loss 0.5 " * 512)  # text head, no newline
        f.seek(size - 4096)
        f.write(b"x" * 4000 + b" Segmentation fault (core dumped)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--lines", type=int, default=10000)
    parser.add_argument("--huge-gb", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        job = Path(tmp) / "job"
        size = write_job(job, args.ranks, args.lines)
        print(f"{args.ranks} rank logs × {args.lines} lines: {size / 1e6:.0f} MB on disk")
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        logs, mtimes = load_path(job)
        read = time.perf_counter() - start
        got = diagnose(logs, mtimes)
        took = time.perf_counter() - start
        grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        kept = sum(len(ex.lines) for ex in logs.values())
        print(
            f"diagnosis: {got.cause} on {got.culprit} ({got.evidence.at if got.evidence else '-'})"
        )
        print(f"time: {took:.2f} s (reading {read:.2f} s); lines kept {kept:,}")
        print(f"peak memory: +{grew:.0f} MB")

        huge = Path(tmp) / "huge.log"
        write_huge_line(huge, args.huge_gb)
        start = time.perf_counter()
        code = cli(["doctor", str(huge)])
        print(
            f"{args.huge_gb:g} GB single line: exit {code} in {time.perf_counter() - start:.2f} s"
        )
        escapes = Path(tmp) / "escapes.log"
        escapes.write_text("\x1b[2J\x1b[H\x1b[31m\x1b[0m\x1b]0;title\x07" * 1000)
        print(f"escape sequences only: exit {cli(['doctor', str(escapes)])}")


if __name__ == "__main__":
    main()
