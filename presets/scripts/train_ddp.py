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
import re
import shlex
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

_SECRET = re.compile(
    r"SECRET|TOKEN|PASSW(OR)?D|(^|_)PASS($|_)|KEY|CREDENTIAL|(^|_)SAS|CONN(ECTION)?_?STR|(^|_)AUTH($|_)|PRIVATE",
    re.IGNORECASE,
)  # names that look like secrets are not printed

_DISTRIBUTED = re.compile(
    r"(RANK|LOCAL_RANK|WORLD_SIZE|LOCAL_WORLD_SIZE|NODE_RANK|GROUP_RANK|GROUP_WORLD_SIZE"
    r"|ROLE_NAME|ROLE_RANK|ROLE_WORLD_SIZE|MASTER_ADDR|MASTER_PORT|TF_CONFIG|OMP_NUM_THREADS"
    r"|CUDA_VISIBLE_DEVICES|(AZ_BATCH|OMPI_COMM_WORLD|TORCHELASTIC|NCCL|ACCELERATE)_\w+)\Z"
)  # where this process sits in the job: what Azure ML and the launcher set, not the host's


def env_line() -> str:
    """`DTRAIN_ENV NAME=value ...`: the distributed-training variables this process has, or
    every variable with DTRAIN_ENV_DUMP=all (dtrain-tui's tests), never a name that looks
    secret. Names and quoted text, not numbers: a log reader takes no metric from it."""
    every = os.environ.get("DTRAIN_ENV_DUMP") == "all"
    env = sorted(
        (k, v)
        for k, v in os.environ.items()
        if (every or _DISTRIBUTED.match(k)) and not _SECRET.search(k)
    )
    pairs = (f"{k}={shlex.quote(' '.join(v.splitlines()))}" for k, v in env)  # one line
    return " ".join(["DTRAIN_ENV", *pairs])


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
