"""A tiny Hugging Face Trainer job: a small BERT built from a config, synthetic data, no download.

As the Azure ML guide shows for Hugging Face, the script has no distributed code: it is started
by `accelerate launch` (or `torchrun`) once per node, the launcher starts one worker per GPU and
sets RANK, LOCAL_RANK and WORLD_SIZE, and the Trainer reads them. The model comes from a config
in code, so the job needs no model download (HF_HUB_OFFLINE=1 in the job's env makes sure).

Rank 0 prints the Trainer's log dicts (`{'loss': …}`). When training begins each rank prints the
distributed variables it has as one line (`DTRAIN_ENV RANK=0 ...`), so a rehearsal can compare it
with dtrain-tui's plan.
"""

import argparse
import os
import sys

import torch
from dtrain_env import env_line
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)


class DumpEnv(TrainerCallback):
    """Prints this process's environment once the Trainer has set up distributed training."""

    def on_train_begin(self, args, state, control, **kwargs):
        print(env_line(), flush=True)
        if state.is_world_process_zero:
            print(f"world size {args.world_size}, {args.parallel_mode.value}", flush=True)


class Synthetic(torch.utils.data.Dataset):
    """Random token sequences labelled by whether their token ids sum to an even number."""

    def __init__(self, samples: int, length: int, vocab: int) -> None:
        generator = torch.Generator().manual_seed(0)
        self.ids = torch.randint(1, vocab, (samples, length), generator=generator)
        self.labels = self.ids.sum(dim=1) % 2

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        return {"input_ids": self.ids[i], "labels": self.labels[i]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-steps", type=int, default=4)
    parser.add_argument("--per-device-batch-size", type=int, default=8)
    parser.add_argument("--output-dir", default="outputs")
    args, _ = parser.parse_known_args()

    config = BertConfig(
        vocab_size=64,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=32,
        num_labels=2,
    )
    model = BertForSequenceClassification(config)
    training = TrainingArguments(
        output_dir=args.output_dir,
        max_steps=args.max_steps,
        per_device_train_batch_size=args.per_device_batch_size,
        learning_rate=1e-3,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        disable_tqdm=True,
        ddp_timeout=120,
        # Without GPUs the Trainer must be told to use the CPU, or each process trains alone.
        use_cpu=not torch.cuda.is_available(),
    )
    trainer = Trainer(
        model=model,
        args=training,
        train_dataset=Synthetic(256, 16, config.vocab_size),
        callbacks=[DumpEnv()],
    )
    trainer.train()
    trainer.save_model()  # the Trainer writes on the main process only
    if trainer.is_world_process_zero():
        print(f"saved {args.output_dir}", flush=True)


if __name__ == "__main__":
    main()
    # Every output is flushed; leave without C++ static destructors (torch 2.13's gloo threads
    # can abort a finished CPU rank at exit, see train_ddp.py).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
