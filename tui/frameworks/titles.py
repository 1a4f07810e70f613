"""Each framework's name, title and tagline as plain data, in the wizard's order.

The wizard's first screen lists the frameworks from here, so that its first frame does not wait
for the framework modules (and the model, which imports them): they load just after it. These
are copies of the modules' own words; a test asserts they equal `registry.frameworks()`, so a
framework added to the registry and not here (or renamed in one place only) fails it.
"""

from __future__ import annotations

DEFAULT = "pytorch"
"""The framework a new job starts with (`JobSpec.framework`'s default; a test asserts it)."""

LISTED: tuple[tuple[str, str, str], ...] = (
    ("pytorch", "PyTorch DDP", "DistributedDataParallel; most jobs"),
    ("lightning", "PyTorch Lightning", "Trainer(strategy='ddp')"),
    ("huggingface", "Hugging Face (Trainer / Accelerate)", "Trainer or Accelerate"),
    ("deepspeed", "DeepSpeed", "ZeRO sharding for large models"),
    ("tensorflow", "TensorFlow (MultiWorkerMirrored / parameter server)", "TF_CONFIG"),
    ("horovod", "Horovod (MPI)", "hvd.init() over MPI"),
)
"""(name, title, tagline) of every framework, as `registry.frameworks()` lists them."""
