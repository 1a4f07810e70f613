"""A stand-in training script for the Azure ML tests (stdlib only, starts fast).

Each rank prints `rank R line I` lines, `--every` seconds apart; `--fail-rank R` makes rank R
print a traceback and exit 3 after `--fail-after` lines. The rank comes from RANK,
OMPI_COMM_WORLD_RANK or TF_CONFIG; the first line shows WORLD_SIZE and DTRAIN_TAG (if set).
"""

import argparse
import json
import os
import sys
import time


def my_rank() -> int:
    for name in ("RANK", "OMPI_COMM_WORLD_RANK"):
        if name in os.environ:
            return int(os.environ[name])
    if "TF_CONFIG" in os.environ:
        return int(json.loads(os.environ["TF_CONFIG"])["task"]["index"])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=20)
    parser.add_argument("--every", type=float, default=0.05)
    parser.add_argument("--fail-rank", type=int, default=None)
    parser.add_argument("--fail-after", type=int, default=3)
    parser.add_argument("--stamp", action="store_true", help="first print `stamp <epoch s>`")
    parser.add_argument("--quiet-for", type=float, default=0.0, help="seconds before printing")
    args = parser.parse_args()
    rank = my_rank()
    time.sleep(args.quiet_for)
    if args.stamp:
        print(f"stamp {time.time():.6f}", flush=True)
    tag = f" DTRAIN_TAG={os.environ['DTRAIN_TAG']}" if "DTRAIN_TAG" in os.environ else ""
    print(
        f"rank {rank} started with WORLD_SIZE={os.environ.get('WORLD_SIZE', '?')}{tag}", flush=True
    )
    for i in range(args.lines):
        if rank == args.fail_rank and i == args.fail_after:
            print("Traceback (most recent call last):", flush=True)
            print(f"RuntimeError: rank {rank} fails on purpose", flush=True)
            return 3
        sys.stdout.write(f"rank {rank} line {i}\n")
        sys.stdout.flush()
        time.sleep(args.every)
    print(f"rank {rank} done", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
