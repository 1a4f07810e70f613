"""A stand-in training script for failure and cancel tests (stdlib only, starts fast).

Every rank prints the env it received (`DTRAIN_ENV {...}`) and its pid, then beats every 0.2 s.
`--fail-rank R` makes rank R exit with `--exit-code` after `--fail-after` seconds; the others
beat until `--seconds` pass (then exit 0), or until they are stopped.
"""

import argparse
import json
import os
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
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--fail-rank", type=int, default=None)
    parser.add_argument("--exit-code", type=int, default=1)
    parser.add_argument("--fail-after", type=float, default=0.5)
    args = parser.parse_args()
    rank = my_rank()
    print("DTRAIN_ENV " + json.dumps(dict(os.environ), sort_keys=True), flush=True)
    print(f"rank {rank} pid {os.getpid()} started", flush=True)
    start = time.monotonic()
    while time.monotonic() - start < args.seconds:
        if rank == args.fail_rank and time.monotonic() - start >= args.fail_after:
            print(f"rank {rank}: failing on purpose with exit code {args.exit_code}", flush=True)
            return args.exit_code
        print(f"rank {rank} beat {time.monotonic() - start:.1f}", flush=True)
        time.sleep(0.2)
    print(f"rank {rank} done", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
