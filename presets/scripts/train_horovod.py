"""A tiny Horovod job for the cluster: `hvd.init()`, `hvd.DistributedOptimizer`, synthetic data.

As the Azure ML guide shows for Horovod, Azure ML's mpi distribution runs mpirun with one rank per
GPU; Open MPI gives each rank OMPI_COMM_WORLD_RANK / _LOCAL_RANK / _SIZE and hvd.init() reads them.
Each rank pins its GPU with hvd.local_rank(), rank 0's weights are broadcast to all, gradients are
averaged by the DistributedOptimizer, and rank 0 alone prints `epoch E loss L` and saves.

Not rehearsed on dtrain-tui's machine: Horovod's last release (0.28.1) does not build against
torch 2.13 there, so the horovod preset runs mpi_env_check.py locally instead (see the README).
"""

import argparse
import os

import horovod.torch as hvd
import torch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=4, help="steps per epoch")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.05)
    args, _ = parser.parse_known_args()

    hvd.init()
    if torch.cuda.is_available():
        torch.cuda.set_device(hvd.local_rank())
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if hvd.rank() == 0:
        print(f"world size {hvd.size()}", flush=True)

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr * hvd.size())  # scaled by ranks
    optimizer = hvd.DistributedOptimizer(optimizer, named_parameters=model.named_parameters())
    hvd.broadcast_parameters(model.state_dict(), root_rank=0)
    hvd.broadcast_optimizer_state(optimizer, root_rank=0)

    w = torch.linspace(-1, 1, 16).unsqueeze(1)
    generator = torch.Generator().manual_seed(hvd.rank())  # each rank its own share of data
    for epoch in range(args.epochs):
        total = 0.0
        for _ in range(args.steps):
            x = torch.randn(args.batch_size, 16, generator=generator)
            loss = torch.nn.functional.mse_loss(model(x.to(device)), (x @ w).to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        average = hvd.allreduce(torch.tensor(total / args.steps), name="loss").item()
        if hvd.rank() == 0:
            print(f"epoch {epoch} loss {average:.4f}", flush=True)

    if hvd.rank() == 0:
        os.makedirs("outputs", exist_ok=True)
        torch.save(model.state_dict(), "outputs/model.pt")
        print("saved outputs/model.pt", flush=True)


if __name__ == "__main__":
    main()
