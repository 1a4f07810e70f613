"""A tiny PyTorch Lightning job: `Trainer(num_nodes=…, devices=…, strategy="ddp")`, synthetic data.

As the Azure ML guide recommends for Lightning, it runs per-process: Azure ML starts one process
per GPU and sets RANK, LOCAL_RANK, WORLD_SIZE, NODE_RANK, MASTER_ADDR and MASTER_PORT; Lightning
sees LOCAL_RANK, starts no processes of its own and joins them. The job command passes the plan's
shape as `--trainer.num_nodes N --trainer.devices G`, so the Trainer's world size is the cluster's.

The multi-node pitfall: a `num_nodes` that disagrees with the cluster (a hard-coded
`num_nodes=1` on 2 nodes) makes Lightning compute ranks and a world size the processes do not
have: node 0 trains alone, node 1's ranks fail (or, if node 0 has already finished, wait for it
until the timeout); the rehearsal shows the error the cluster would give.

Rank 0 prints `epoch E loss L`. Once the process group is up, each rank prints the distributed
variables it has as one line (`DTRAIN_ENV RANK=0 ...`), so a rehearsal can compare it with
dtrain-tui's plan.
"""

import argparse
import datetime
import os
import sys

import lightning as L
import torch
from dtrain_env import env_line
from lightning.pytorch.strategies import DDPStrategy
from torch.utils.data import DataLoader, TensorDataset


class Regression(L.LightningModule):
    """A two-layer network fitting y = x·w + noise."""

    def __init__(self, lr: float) -> None:
        super().__init__()
        self.lr = lr
        self.net = torch.nn.Sequential(
            torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)
        )

    def on_fit_start(self) -> None:
        # The process group exists now: everything Lightning set in this process is in os.environ.
        print(env_line(), flush=True)
        if self.global_rank == 0:
            print(f"world size {self.trainer.world_size}, strategy ddp", flush=True)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = torch.nn.functional.mse_loss(self.net(x), y)
        self.log("loss", loss, on_epoch=True, on_step=False, sync_dist=True)
        return loss

    def on_train_epoch_end(self) -> None:
        loss = self.trainer.callback_metrics["loss"]
        if self.global_rank == 0:
            print(f"epoch {self.current_epoch} loss {loss.item():.4f}", flush=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.lr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trainer.num_nodes", dest="num_nodes", type=int, default=1)
    parser.add_argument("--trainer.devices", dest="devices", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--samples", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--timeout", type=int, default=120, help="seconds to wait for all ranks")
    args, _ = parser.parse_known_args()

    torch.manual_seed(0)
    x = torch.randn(args.samples, 16)
    y = x @ torch.linspace(-1, 1, 16).unsqueeze(1) + 0.1 * torch.randn(args.samples, 1)
    loader = DataLoader(TensorDataset(x, y), batch_size=args.batch_size)

    trainer = L.Trainer(
        num_nodes=args.num_nodes,  # must equal the job's instance_count
        devices=args.devices,  # must equal the processes per node
        # DDP (Lightning adds a DistributedSampler to the loader), with a timeout so a rank
        # that waits for others that never come fails instead of hanging.
        strategy=DDPStrategy(timeout=datetime.timedelta(seconds=args.timeout)),
        accelerator="auto",  # GPUs on the cluster, the CPU here
        max_epochs=args.epochs,
        enable_progress_bar=False,
        enable_model_summary=False,
        enable_checkpointing=False,
        logger=False,
        default_root_dir="outputs",
    )
    trainer.fit(Regression(args.lr), loader)
    trainer.save_checkpoint("outputs/model.ckpt")  # every rank calls it; rank 0 writes the file
    if trainer.global_rank == 0:
        print("saved outputs/model.ckpt", flush=True)


if __name__ == "__main__":
    main()
    # Every output is flushed; leave without C++ static destructors (torch 2.13's gloo threads
    # can abort a finished CPU rank at exit, see train_ddp.py).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
