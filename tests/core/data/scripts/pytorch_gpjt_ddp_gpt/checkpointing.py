# Source: https://github.com/gpjt/ddp-base-model-from-scratch/blob/c894ed03715de27a801f92c41238eccb3e57dac9/checkpointing.py (copied unchanged below this line)
import datetime
import json
from pathlib import Path

from safetensors.torch import load_model, save_model
import torch


def get_checkpoints_dir(run_dir):
    return run_dir / "checkpoints"


def load_checkpoint(run_dir, checkpoint, model, optimizer=None, scaler=None, scheduler=None):
    checkpoints_dir = get_checkpoints_dir(run_dir)
    checkpoint_dir = checkpoints_dir / checkpoint
    load_model(model, checkpoint_dir / "model.safetensors")

    if optimizer:
        optimizer.load_state_dict(torch.load(checkpoint_dir / "optimizer.pt"))

    if scaler:
        scaler.load_state_dict(torch.load(checkpoint_dir / "scaler.pt"))

    if scheduler:
        scheduler.load_state_dict(torch.load(checkpoint_dir / "scheduler.pt"))

    with open(checkpoint_dir / "meta.json", "r") as f:
        meta = json.load(f)
        restart_global_step = meta["global_step"] + 1

    with open(checkpoints_dir / "best" / "meta.json") as f:
        best_loss = json.load(f)["avg_train_loss"]

    return restart_global_step, best_loss


def save_checkpoint(
    run_dir,
    name,
    model, optimizer, scaler, scheduler,
    learning_rate,
    min_train_loss, max_train_loss, avg_train_loss,
    max_grad_norms, avg_grad_norms, frac_clipped,
    moe_routing_weights, moe_routing_topk_weights,
    global_step, is_best
):
    checkpoints_dir = get_checkpoints_dir(run_dir)
    if not checkpoints_dir.exists():
        checkpoints_dir.mkdir()

    now = datetime.datetime.now(datetime.UTC)
    checkpoint_name = f"{now:%Y%m%dZ%H%M%S}-{name}"
    checkpoint_dir = checkpoints_dir / checkpoint_name
    checkpoint_dir.mkdir()

    save_model(model, checkpoint_dir / "model.safetensors")
    torch.save(optimizer.state_dict(), checkpoint_dir / "optimizer.pt")
    if scaler:
        torch.save(scaler.state_dict(), checkpoint_dir / "scaler.pt")
    if scheduler is not None:
        torch.save(scheduler.state_dict(), checkpoint_dir / "scheduler.pt")

    with open(checkpoint_dir / "meta.json", "w") as f:
        json.dump(
            dict(
                learning_rate=learning_rate,
                min_train_loss=min_train_loss,
                max_train_loss=max_train_loss,
                avg_train_loss=avg_train_loss,
                max_grad_norms=max_grad_norms,
                avg_grad_norms=avg_grad_norms,
                frac_clipped=frac_clipped,
                moe_routing_weights=moe_routing_weights,
                moe_routing_topk_weights=moe_routing_topk_weights,
                global_step=global_step,
                is_best=is_best,
            ),
            f,
            indent=2,
        )

    symlink_target = Path(".") / checkpoint_dir.name
    if is_best:
        best_path = checkpoints_dir / "best"
        best_path.unlink(missing_ok=True)
        best_path.symlink_to(symlink_target, target_is_directory=True)

    latest_path = checkpoints_dir / "latest"
    latest_path.unlink(missing_ok=True)
    latest_path.symlink_to(symlink_target, target_is_directory=True)
