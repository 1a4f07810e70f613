"""A training script that breaks one rank on purpose, the ways real jobs break (doctor tests).

`--mode raise|import|sigkill|hang|port|world --rank R`: every rank prints a few steps, then rank R
raises a ValueError, imports a module that is not installed, kills itself with SIGKILL, sleeps
instead of joining an all-reduce (the others time out in gloo after `--timeout` s), or starts
with a WORLD_SIZE one smaller than the others'; `port` needs nothing from the script: the test
holds the rendezvous port. The others keep stepping until they are stopped.
"""

import argparse
import datetime
import os
import signal
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--rank", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args()
    rank = int(os.environ["RANK"])
    print(f"rank {rank} started", flush=True)
    broken = rank == args.rank
    if args.mode == "import" and broken:
        import flash_attn_is_not_installed  # noqa: F401
    if args.mode in ("hang", "port", "world"):
        return collective(args, rank, broken)
    for step in range(1000):
        print(f"rank {rank} step {step} loss {1 / (step + 1):.3f}", flush=True)
        if broken and step == 3:
            if args.mode == "raise":
                raise ValueError(f"batch {step} has 3 channels, the model expects 4")
            if args.mode == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.1)
    return 0


def collective(args, rank: int, broken: bool) -> int:
    import torch
    import torch.distributed as dist

    world = int(os.environ["WORLD_SIZE"])
    if args.mode == "world" and broken:
        world -= 1  # a launcher or a hard-coded value that disagrees with the others
    # Joining waits as long as it takes every rank to import torch (seconds apart on a busy
    # machine); only the all-reduce has the short timeout, as a job's training step would.
    dist.init_process_group("gloo", rank=rank, world_size=world)
    step = dist.new_group(timeout=datetime.timedelta(seconds=args.timeout))
    print(f"rank {rank} joined the process group", flush=True)
    if args.mode == "hang" and broken:
        print(f"rank {rank} loading a slow shard…", flush=True)
        time.sleep(600)  # never reaches the all-reduce; stopped when the job fails
    value = torch.ones(1)
    dist.all_reduce(value, group=step)
    print(f"rank {rank} all-reduce gave {value.item()}", flush=True)
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
