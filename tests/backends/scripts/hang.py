"""A DDP loop (gloo) in which rank HANG_RANK stops at step 2 while every other rank waits in
all_reduce: the hang the stack dumper must name. HANG_MODE says how it stops: `sleep` in its data
loader (the default), `spin` there in a busy loop, or `exit` (the process ends with code 3,
printing nothing)."""

import os
import time

import torch
import torch.distributed as dist


def load_batch(rank: int, step: int) -> torch.Tensor:
    if step == 2 and rank == int(os.environ.get("HANG_RANK", "-1")):
        mode = os.environ.get("HANG_MODE", "sleep")
        if mode == "exit":
            os._exit(3)
        while mode == "spin":
            pass
        time.sleep(600)
    return torch.ones(4)


def train_step(batch: torch.Tensor) -> None:
    dist.all_reduce(batch)


def main() -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    print(f"rank {rank} pid {os.getpid()} started", flush=True)
    for step in range(1000):
        train_step(load_batch(rank, step))
        print(f"step {step}", flush=True)
        time.sleep(0.05)


if __name__ == "__main__":
    main()
