"""A tiny DeepSpeed job: `deepspeed.initialize`, ZeRO stage 2 from a config file, synthetic data.

As the Azure ML guide shows for DeepSpeed, Azure ML's pytorch distribution starts one process per
GPU and sets RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT; deepspeed.init_distributed()
reads them (under the mpi distribution it maps Open MPI's variables itself). The command passes
`--deepspeed --deepspeed_config ds_config.json` for the parser `deepspeed.add_config_arguments`
adds. The config gives the micro batch and gradient accumulation and leaves train_batch_size out,
so DeepSpeed computes it for any world size; a config that states it must equal
micro batch × accumulation × WORLD_SIZE, or DeepSpeed refuses to start.

On a machine without GPUs DeepSpeed picks its CPU accelerator (DS_ACCELERATOR=cpu says so
without the warning) and gloo for communication.

Rank 0 prints `step S loss L`. Once the process group is up each rank prints the distributed
variables it has as one line (`DTRAIN_ENV RANK=0 ...`), so a rehearsal can compare it with
dtrain-tui's plan.
"""

import argparse
import os
import sys

import deepspeed
import torch
from deepspeed.accelerator import get_accelerator
from dtrain_env import env_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--local_rank", type=int, default=-1, help="set by the deepspeed launcher")
    parser = deepspeed.add_config_arguments(parser)  # --deepspeed, --deepspeed_config
    args, _ = parser.parse_known_args()

    # Under the mpi distribution (no RANK set), DeepSpeed maps Open MPI's variables itself when
    # AZUREML_EXPERIMENT_ID says Azure ML; verbose=False because its log line reads
    # NCCL_SOCKET_IFNAME before setting it and raises KeyError where the image leaves it unset.
    deepspeed.init_distributed(
        dist_backend=get_accelerator().communication_backend_name(), verbose=False
    )
    print(env_line(), flush=True)

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    engine, _, _, _ = deepspeed.initialize(
        args=args,
        model=model,
        model_parameters=model.parameters(),
        optimizer=torch.optim.AdamW(model.parameters(), lr=args.lr),  # ZeRO shards its states
    )
    rank = torch.distributed.get_rank()
    if rank == 0:
        print(
            f"world size {torch.distributed.get_world_size()}, ZeRO stage "
            f"{engine.zero_optimization_stage()}, train_batch_size {engine.train_batch_size()}",
            flush=True,
        )

    w = torch.linspace(-1, 1, 16).unsqueeze(1)
    generator = torch.Generator().manual_seed(rank)  # each rank draws its own share of the data
    for step in range(args.steps):
        x = torch.randn(engine.train_micro_batch_size_per_gpu(), 16, generator=generator)
        y = x @ w
        loss = torch.nn.functional.mse_loss(engine(x.to(engine.device)), y.to(engine.device))
        engine.backward(loss)
        engine.step()
        if rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)

    engine.save_checkpoint("outputs")  # every rank writes its ZeRO shard
    if rank == 0:
        print("saved outputs", flush=True)
    torch.distributed.barrier()


if __name__ == "__main__":
    main()
    # Every output is flushed; leave without C++ static destructors (torch 2.13's gloo threads
    # can abort a finished CPU rank at exit, see train_ddp.py).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
