# Source: https://github.com/gpjt/ddp-base-model-from-scratch/blob/c894ed03715de27a801f92c41238eccb3e57dac9/ddp_train.py (copied unchanged below this line)
import json
import os
import random
import time
from contextlib import nullcontext
from pathlib import Path

import click
from tqdm import tqdm

from huggingface_hub import snapshot_download

import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.ticker import MaxNLocator

from safetensors.torch import load_file

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset

from checkpointing import get_checkpoints_dir, load_checkpoint, save_checkpoint
from gpt import GPTModel


class BigTrainDataset(Dataset):

    def __init__(self, all_tokens, seq_length, microbatch_size):
        self.xs = all_tokens[:-1].reshape(-1, microbatch_size, seq_length)
        self.ys = all_tokens[1:].reshape(-1, microbatch_size, seq_length)

    def __getitem__(self, ix):
        return (self.xs[ix], self.ys[ix])

    def __len__(self):
        return self.xs.shape[0]


def download_dataset(dataset_dir, dataset_name):
    snapshot_download(
        f"{dataset_name}",
        repo_type="dataset",
        local_dir=dataset_dir,
        allow_patterns="*"
    )


def load_dataset(
    dataset_dir, split,
    min_tokens, start_token,
    world_size, microbatch_size,
    gradient_accumulation_steps,
    seq_length
):
    full_dataset = load_file(dataset_dir / f"{split}.safetensors")["tokens"]
    if start_token > len(full_dataset):
        raise Exception(f"start_token {start_token} is past the end of the dataset")

    one_full_batch_tokens = world_size * microbatch_size * gradient_accumulation_steps * seq_length

    if min_tokens == -1:
        available_tokens = len(full_dataset) - start_token
        available_batches = (available_tokens // one_full_batch_tokens)
        tokens_needed = available_batches * one_full_batch_tokens
    else:
        if min_tokens % one_full_batch_tokens == 0:
            tokens_needed = min_tokens
        else:
            batches_for_just_over_min = (min_tokens // one_full_batch_tokens) + 1
            tokens_needed = batches_for_just_over_min * one_full_batch_tokens

    # Note that we need one extra token for our Ys.
    tokens_needed += 1

    if len(full_dataset) < start_token + tokens_needed:
        raise Exception(f"Not enough tokens (wanted {start_token + tokens_needed}, got {len(full_dataset)})")

    return BigTrainDataset(
        full_dataset[start_token:start_token + tokens_needed],
        seq_length, microbatch_size,
    )


def get_training_data(run_dir):
    checkpoints_dir = get_checkpoints_dir(run_dir)

    def sanitize(val, cap=1_000_000):
        if val == float("inf"):
            return cap
        if val == float("-inf"):
            return -cap
        return val

    learning_rates = []
    min_train_losses = []
    max_train_losses = []
    avg_train_losses = []
    max_grad_norms = []
    avg_grad_norms = []
    frac_clipped = []
    best_global_step = None
    for item in checkpoints_dir.iterdir():
        if item.name == "latest":
            continue

        meta = json.loads((item / "meta.json").read_text())
        if item.name == "best":
            best_global_step = meta["global_step"]
            continue

        if meta.get("learning_rate") is not None:
            learning_rates.append((meta["global_step"], meta["learning_rate"]))
        min_train_losses.append((meta["global_step"], meta["min_train_loss"]))
        max_train_losses.append((meta["global_step"], meta["max_train_loss"]))
        avg_train_losses.append((meta["global_step"], meta["avg_train_loss"]))

        if meta.get("max_grad_norms") is not None:
            max_grad_norms.append((meta["global_step"], sanitize(meta["max_grad_norms"])))
        if meta.get("avg_grad_norms") is not None:
            avg_grad_norms.append((meta["global_step"], sanitize(meta["avg_grad_norms"])))
        if meta.get("frac_clipped") is not None:
            frac_clipped.append((meta["global_step"], meta["frac_clipped"]))

    learning_rates.sort(key=lambda x: x[0])
    min_train_losses.sort(key=lambda x: x[0])
    max_train_losses.sort(key=lambda x: x[0])
    avg_train_losses.sort(key=lambda x: x[0])
    max_grad_norms.sort(key=lambda x: x[0])
    avg_grad_norms.sort(key=lambda x: x[0])
    frac_clipped.sort(key=lambda x: x[0])

    return (
        learning_rates,
        min_train_losses, max_train_losses, avg_train_losses,
        max_grad_norms, avg_grad_norms, frac_clipped,
        best_global_step
    )


def generate_training_charts(run_dir, clipping_max_norm):
    (
        learning_rates,
        min_train_points, max_train_points, avg_train_points,
        max_grad_points, avg_grad_points, frac_clipped_points,
        best_global_step
    ) = get_training_data(run_dir)

    plt.xkcd()

    font_family = None
    for f in font_manager.fontManager.ttflist:
        if "xkcd" in f.name.lower():
            font_family = f.name
            break
    if font_family is not None:
        plt.rcParams['font.family'] = font_family

    # --- Chart 1: Loss ---

    fig, ax_loss = plt.subplots(figsize=(8, 6), dpi=100)

    train_steps, min_train_losses = zip(*min_train_points)
    _, max_train_losses = zip(*max_train_points)
    _, avg_train_losses = zip(*avg_train_points)

    ax_loss.fill_between(
        train_steps,
        min_train_losses,
        max_train_losses,
        color="lightblue",
        alpha=0.25,
        label="MIN–MAX LOSS",
    )
    ax_loss.plot(
        train_steps,
        avg_train_losses,
        color="blue",
        label="AVG LOSS",
        marker="o",
        linestyle="-",
    )

    ax_loss.set_title("TRAINING RUN: LOSS")
    ax_loss.set_xlabel("GLOBAL STEP")
    ax_loss.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax_loss.set_ylabel("LOSS")

    if best_global_step is not None:
        ax_loss.axvline(
            best_global_step,
            color="red",
            linestyle="--",
            linewidth=1.5,
            label="BEST STEP",
        )

    ax_loss.legend(
        loc="upper right",
        handlelength=2.0,
        handletextpad=0.6,
    )

    fig.tight_layout(rect=(0, 0.12, 1, 1))
    image_file = run_dir / "loss-chart.png"
    fig.savefig(image_file, bbox_inches="tight")
    plt.close(fig)

    # --- Chart 2: Grad Norm ---

    if max_grad_points or avg_grad_points:
        fig_grad, ax_grad = plt.subplots(figsize=(8, 6), dpi=100)

        if max_grad_points:
            xs, ys = zip(*max_grad_points)
            ax_grad.plot(
                xs, ys,
                color="green",
                label="GRAD MAX",
                marker="x",
                linestyle=":",
            )
        if avg_grad_points:
            xs, ys = zip(*avg_grad_points)
            ax_grad.plot(
                xs, ys,
                color="lightgreen",
                label="GRAD AVG",
                marker="x",
                linestyle=":",
            )

        if clipping_max_norm is not None:
            ax_grad.axhline(
                clipping_max_norm,
                color="green",
                linestyle="--",
                linewidth=1.0,
                label="GRAD CLIP",
            )
            ax_grad.set_ylim(0, clipping_max_norm + 2)

        ax_grad.set_title("TRAINING RUN: GRAD NORM")
        ax_grad.set_xlabel("GLOBAL STEP")
        ax_grad.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax_grad.set_ylabel("GRAD NORM (L2, PRE-CLIP)")

        ax_grad.legend(
            loc="upper right",
            handlelength=2.0,
            handletextpad=0.6,
        )

        fig_grad.tight_layout(rect=(0, 0.15, 1, 1))
        grad_image_file = run_dir / "grad-norm-chart.png"
        fig_grad.savefig(grad_image_file, bbox_inches="tight")
        plt.close(fig_grad)

    # --- Chart 3: Learning Rate ---

    if learning_rates:
        fig_lr, ax_lr = plt.subplots(figsize=(8, 6), dpi=100)

        lr_steps, lr_values = zip(*learning_rates)

        ax_lr.plot(
            lr_steps,
            lr_values,
            color="purple",
            marker="o",
            linestyle="-",
        )

        ax_lr.set_title("TRAINING RUN: LEARNING RATE")
        ax_lr.set_xlabel("GLOBAL STEP")
        ax_lr.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax_lr.set_ylabel("LEARNING RATE")

        fig_lr.tight_layout(rect=(0, 0.15, 1, 1))
        lr_image_file = run_dir / "learning-rate-chart.png"
        fig_lr.savefig(lr_image_file, bbox_inches="tight")
        plt.close(fig_lr)


def calculate_loss(logits, targets):
    return torch.nn.functional.cross_entropy(
        logits.flatten(0, 1), targets.flatten()
    )



def average_per_layer_moe_routing_weights(weights):
    batch_size, seq_len, num_experts = weights.shape
    weights_view = weights.view(
        ((batch_size * seq_len), num_experts)
    )
    return weights_view.mean(dim=0).tolist()



def train(
    run_dir,
    model, optimizer, scaler, scheduler,
    clipping_max_norm,
    train_ds,
    start_global_step, best_loss,
    checkpoint_interval,
    use_amp, gradient_accumulation_steps,
    do_checkpoints=True,
    max_steps=None,
):
    device = next(model.parameters()).device

    if use_amp:
        torch.set_float32_matmul_precision("high")

    rank = dist.get_rank()
    world_size = dist.get_world_size()

    if max_steps is not None:
        total_global_steps = max_steps
    else:
        total_global_steps = (len(train_ds) // world_size) // gradient_accumulation_steps

    print(f"Starting rank {rank} training at global step {start_global_step}")
    train_losses = []
    moe_routing_weights = []
    moe_routing_topk_weights = []
    grad_norms = []
    clipped_steps = []
    start_time = time.time()
    tokens_seen_this_rank = 0

    progress_bar = tqdm(
        range(start_global_step, total_global_steps),
        disable=(rank != 0)
    )
    for global_step in progress_bar:
        model.train()
        optimizer.zero_grad(set_to_none=True)

        for accumulation_step in range(gradient_accumulation_steps):
            inputs, targets = train_ds[((global_step * gradient_accumulation_steps) + accumulation_step) * world_size + rank]
            inputs = inputs.to(device).to(torch.long)
            targets = targets.to(device).to(torch.long)
            if use_amp:
                with torch.amp.autocast(device_type=device.type, dtype=torch.float16):
                    logits, moe_routing_info = model(inputs)
                    train_loss = calculate_loss(logits, targets)
            else:
                logits, moe_routing_info = model(inputs)
                train_loss = calculate_loss(logits, targets)

            is_last = accumulation_step == gradient_accumulation_steps - 1
            with model.no_sync() if not is_last else nullcontext():
                if scaler is not None:
                    scaler.scale(train_loss / gradient_accumulation_steps).backward()
                else:
                    (train_loss / gradient_accumulation_steps).backward()

            train_losses.append(train_loss.item())

            if moe_routing_info is not None:
                layer_average_routing_weights = []
                layer_average_topk_routing_weights = []
                for layer_routing_info in moe_routing_info:
                    layer_routing_logits, layer_topk_expert_weights = layer_routing_info

                    layer_average_routing_weights.append(
                        average_per_layer_moe_routing_weights(
                            torch.softmax(layer_routing_logits.detach(), dim=-1)
                        )
                    )
                    layer_average_topk_routing_weights.append(
                        average_per_layer_moe_routing_weights(
                            layer_topk_expert_weights.detach()
                        )
                    )
                moe_routing_weights.append(layer_average_routing_weights)
                moe_routing_topk_weights.append(layer_average_topk_routing_weights)

            microbatch_size, sequence_length = inputs.shape
            tokens_seen_this_rank += microbatch_size * sequence_length

        if clipping_max_norm is not None:
            if scaler is not None:
                scaler.unscale_(optimizer)
            pre_clip_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clipping_max_norm).item()
            grad_norms.append(pre_clip_norm)
            clipped_steps.append(pre_clip_norm > clipping_max_norm)

        if scaler is not None:
            scaler.step(optimizer)
            scaler.update()
        else:
            # The scaler skips non-finite gradients, but if we're not using it we have
            # to do that for ourselves.
            found_nonfinite = False
            for p in model.parameters():
                if p.grad is not None and not torch.isfinite(p.grad).all():
                    found_nonfinite = True
                    break
            if not found_nonfinite:
                optimizer.step()


        current_learning_rate = optimizer.param_groups[0]["lr"]
        if scheduler is not None:
            scheduler.step()

        if rank == 0:
            elapsed_time = time.time() - start_time
            tokens_per_sec = (tokens_seen_this_rank * world_size) / elapsed_time
            progress_bar.set_postfix(
                loss=f"{train_loss.item():.3f}",
                tps=f"{tokens_per_sec:,.0f}"
            )


        is_checkpoint_iter = do_checkpoints and (
            (global_step % checkpoint_interval == 0)
            or (global_step == total_global_steps - 1)
        )
        if is_checkpoint_iter:
            dist.barrier()

            if rank == 0:
                print("\n\n\nCheckpoint")
                base_model = model.module

                min_train_loss = min(train_losses)
                max_train_loss = max(train_losses)
                avg_train_loss = sum(train_losses) / len(train_losses)
                train_losses = []

                if best_loss is None or avg_train_loss < best_loss:
                    is_best = True
                    best_loss = avg_train_loss
                else:
                    is_best = False

                if clipping_max_norm is not None:
                    max_grad_norms = max(grad_norms)
                    avg_grad_norms = sum(grad_norms) / len(grad_norms)
                    frac_clipped = sum(b for b in clipped_steps if b) / len(clipped_steps)
                else:
                    max_grad_norms = None
                    avg_grad_norms = None
                    frac_clipped = None
                grad_norms = []
                clipped_steps = []

                save_checkpoint(
                    run_dir,
                    f"iteration-{global_step}",
                    base_model, optimizer, scaler, scheduler,
                    current_learning_rate,
                    min_train_loss, max_train_loss, avg_train_loss,
                    max_grad_norms, avg_grad_norms, frac_clipped,
                    moe_routing_weights, moe_routing_topk_weights,
                    global_step,
                    is_best
                )
                moe_routing_weights = []
                moe_routing_topk_weights = []
                generate_training_charts(run_dir, clipping_max_norm)

                model.train()
                print("\nContinuing training")

            dist.barrier()

    end_time = time.time()
    elapsed_time = end_time - start_time

    if do_checkpoints and rank == 0:
        print(f"\n\n\nTraining complete in {elapsed_time:,.3f} seconds")
        total_tokens_seen = tokens_seen_this_rank * world_size
        print(f"Tokens seen: {total_tokens_seen:,.0f}")
        print(f"Throughput: {total_tokens_seen / elapsed_time:,.0f} tokens/second")
        print(f"Final train loss: {avg_train_loss:.3f}")


def check_batch_size_works(
    batch_size,
    run_dir, dataset_dir,
    model, optimizer, scaler,
    train_conf, model_conf,
    use_amp, gradient_accumulation_steps,
):
    if dist.get_rank() == 0:
        print(f"Trying to train with batch size {batch_size}")
    train_ds = load_dataset(
        dataset_dir, "train",
        train_conf["min_train_tokens"], train_conf["start_train_token"],
        dist.get_world_size(), batch_size,
        gradient_accumulation_steps,
        model_conf["context_length"]
    )

    try:
        train(
            run_dir,
            model, optimizer, scaler, None,
            None,
            train_ds,
            start_global_step=0, best_loss=None,
            checkpoint_interval=None,
            use_amp=use_amp, gradient_accumulation_steps=gradient_accumulation_steps,
            do_checkpoints=False, max_steps=3
        )
        if dist.get_rank() == 0:
            print(f"Batch size {batch_size} worked OK")
        return True
    except RuntimeError as e:
        if "out of memory" not in str(e):
            raise
        torch.cuda.empty_cache()
        if dist.get_rank() == 0:
            print(f"Batch size {batch_size} OOMed")
        return False


def binary_chop_batch_sizes(
    run_dir, dataset_dir,
    model, optimizer, scaler, local_rank,
    train_conf, model_conf,
    use_amp, gradient_accumulation_steps,
):
    ddp_model = DDP(model, device_ids=[local_rank])

    def _check_batch_size_works(batch_size):
        return check_batch_size_works(
            batch_size, run_dir, dataset_dir,
            ddp_model, optimizer, scaler,
            train_conf, model_conf,
            use_amp, gradient_accumulation_steps,
        )

    smallest_fail = 70
    if _check_batch_size_works(smallest_fail):
        raise Exception(
            f"Batch size of {smallest_fail} worked!  Nice machine, "
            "but you're going to have to alter the code."
        )

    largest_win = 1
    if not _check_batch_size_works(largest_win):
        raise Exception(
            f"Batch size of {largest_win} didn't work :-(.  "
            "Gonna need a bigger box"
        )

    while smallest_fail - largest_win > 1:
        midpoint = largest_win + ((smallest_fail - largest_win) // 2)
        if _check_batch_size_works(midpoint):
            largest_win = midpoint
        else:
            smallest_fail = midpoint

    return largest_win


def load_datasets_and_train(
    run_dir,
    model, optimizer, scaler, local_rank,
    dataset_dir,
    train_conf, model_conf,
    checkpoint, learning_rate,
    use_amp, gradient_accumulation_steps,
):
    world_size = dist.get_world_size()
    train_ds = load_dataset(
        dataset_dir, "train",
        train_conf["min_train_tokens"], train_conf["start_train_token"],
        world_size, train_conf["microbatch_size"],
        gradient_accumulation_steps,
        model_conf["context_length"]
    )

    scheduler = None
    if train_conf.get("schedule_learning_rate", False):
        total_steps = (len(train_ds) // world_size) // gradient_accumulation_steps
        warmup_steps = (total_steps * train_conf.get("warmup_period_percent", 0)) // 100
        decay_steps = total_steps - warmup_steps
        warmup_scheduler = torch.optim.lr_scheduler.LinearLR(
            optimizer,
            start_factor=0.00001,
            end_factor=1.0,
            total_iters=warmup_steps
        )
        cosine_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(
            optimizer,
            T_max=decay_steps,
            eta_min=learning_rate / 10
        )
        scheduler = torch.optim.lr_scheduler.SequentialLR(
            optimizer,
            schedulers=[warmup_scheduler, cosine_scheduler],
            milestones=[warmup_steps],
        )

    if checkpoint:
        global_step, best_loss = load_checkpoint(
            run_dir, checkpoint, model, optimizer, scaler, scheduler
        )
    else:
        global_step = 0
        best_loss = None

    ddp_model = DDP(model, device_ids=[local_rank])

    train(
        run_dir,
        ddp_model, optimizer, scaler, scheduler,
        train_conf.get("clipping_max_norm"),
        train_ds,
        global_step, best_loss,
        checkpoint_interval=train_conf["checkpoint_interval"],
        use_amp=use_amp, gradient_accumulation_steps=gradient_accumulation_steps,
        do_checkpoints=True,
    )


@click.command()
@click.argument("run")
@click.argument("datasets_dir_path")
@click.argument("checkpoint", default=None)
@click.option("--find-max-microbatch-size", "-f", is_flag=True)
def main(run, datasets_dir_path, checkpoint, find_max_microbatch_size):
    run_dir = Path(__file__).resolve().parent / "runs" / run
    if not run_dir.is_dir():
        raise Exception(f"Could not find run dir {run_dir}")

    model_conf_file = run_dir / "model.json"
    if not model_conf_file.is_file():
        raise Exception(f"Could not find model config in {model_conf_file}")
    with open(model_conf_file, "r") as f:
        model_conf = json.load(f)

    train_conf_file = run_dir / "train.json"
    if not train_conf_file.is_file():
        raise Exception(f"Could not find train config in {train_conf_file}")
    with open(train_conf_file, "r") as f:
        train_conf = json.load(f)

    # Which of the one-per-GPU processes are we on this machine?
    local_rank = int(os.environ["LOCAL_RANK"])

    # Set ourselves up to use the GPU with the ID that matches our local rank
    torch.accelerator.set_device_index(local_rank)

    # Get the accelerator object associated with that GPU,
    # and the associated backend object (eg. `nccl` for CUDA):
    acc = torch.accelerator.current_accelerator()
    backend = torch.distributed.get_default_backend_for_device(acc)

    # Initialize torch.distributed; set the device ID explicitly
    # to avoid warnings in `dist.barrier`
    dist.init_process_group(backend, device_id=local_rank)

    # Set all of the random seeds
    seed = train_conf.get("random_seed", 42)
    random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)

    model = GPTModel(model_conf).to(local_rank)

    learning_rate = train_conf.get("learning_rate", 0.0004)
    weight_decay = train_conf.get("weight_decay", 0.1)
    optimizer = torch.optim.AdamW(
        model.parameters(),
        lr=learning_rate, weight_decay=weight_decay
    )

    use_amp = train_conf.get("use_amp", True)
    if use_amp:
        scaler = torch.amp.GradScaler()
    else:
        scaler = None

    gradient_accumulation_steps = train_conf.get("gradient_accumulation_steps", 1)

    datasets_dir = Path(datasets_dir_path)
    dataset_name = train_conf["dataset"]
    dataset_dir = datasets_dir / dataset_name
    if local_rank == 0:
        if not datasets_dir.exists():
            datasets_dir.mkdir()
        if not datasets_dir.is_dir():
            raise Exception(f"{datasets_dir_path} is not a directory")
        download_dataset(dataset_dir, dataset_name)
    dist.barrier()

    if find_max_microbatch_size:
        max_microbatch_size = binary_chop_batch_sizes(
            run_dir, dataset_dir,
            model, optimizer, scaler, local_rank,
            train_conf, model_conf,
            use_amp, gradient_accumulation_steps,
        )
        if dist.get_rank() == 0:
            print(f"Max microbatch size was {max_microbatch_size}")
    else:
        load_datasets_and_train(
            run_dir,
            model, optimizer, scaler, local_rank,
            dataset_dir,
            train_conf, model_conf,
            checkpoint,
            learning_rate,
            use_amp, gradient_accumulation_steps,
        )

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
