"""A tiny DDP training script: runs on CPUs with gloo and on GPUs with NCCL.

It follows the practices of the Azure ML distributed-training guide:
- `init_process_group(init_method="env://")` with a timeout: RANK, WORLD_SIZE, MASTER_ADDR and
  MASTER_PORT come from Azure ML (per-process launch) or torchrun (per-node launch);
- a `DistributedSampler`, with `set_epoch()` so every epoch shuffles differently;
- logging and checkpointing on rank 0 only.
First it prints the distributed variables it received as one line (`DTRAIN_ENV RANK=0 ...`), so a
rehearsal on this machine can be checked against the plan dtrain-tui showed.
"""

import argparse
import datetime
import os
import sys

import torch
import torch.distributed as dist
from dtrain_env import env_line
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def dump_env() -> None:
    print(env_line(), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--samples", type=int, default=512)
    parser.add_argument("--checkpoint", default="outputs/model.pt")
    parser.add_argument("--timeout", type=int, default=120, help="seconds to wait for all ranks")
    args, unknown = parser.parse_known_args()
    dump_env()

    use_cuda = torch.cuda.is_available()
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if use_cuda:
        torch.cuda.set_device(local_rank % torch.cuda.device_count())
    dist.init_process_group(
        backend="nccl" if use_cuda else "gloo",
        init_method="env://",
        timeout=datetime.timedelta(seconds=args.timeout),
    )
    rank, world = dist.get_rank(), dist.get_world_size()
    device = torch.device("cuda", torch.cuda.current_device()) if use_cuda else torch.device("cpu")
    if rank == 0:
        print(
            f"world size {world}, backend {dist.get_backend()}, ignored args {unknown}", flush=True
        )

    torch.manual_seed(0)
    x = torch.randn(args.samples, 16)
    y = x @ torch.linspace(-1, 1, 16).unsqueeze(1) + 0.1 * torch.randn(args.samples, 1)
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler)

    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    model = DistributedDataParallel(
        model.to(device), device_ids=[device.index] if use_cuda else None
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.MSELoss()

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        total = torch.zeros(2, device=device)
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(xb.to(device)), yb.to(device))
            loss.backward()
            optimizer.step()
            total += torch.tensor([loss.item() * len(xb), len(xb)], device=device)
        dist.all_reduce(total)
        if rank == 0:
            print(f"epoch {epoch} loss {total[0].item() / total[1].item():.4f}", flush=True)

    if rank == 0:
        os.makedirs(os.path.dirname(args.checkpoint) or ".", exist_ok=True)
        torch.save(model.module.state_dict(), args.checkpoint)
        print(f"saved {args.checkpoint}", flush=True)
    dist.barrier()
    del model, optimizer  # DDP holds the process group; release it before destroying the group
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
    # Training is done and every output is flushed. Leave without running C++ static
    # destructors: on CPU, torch 2.13's gloo threads can still be joinable at interpreter exit
    # and a rank then aborts with "terminate called without an active exception" (seen in about
    # 1 run in 10 on a loaded 2-core machine), turning a finished job into a failed one.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
