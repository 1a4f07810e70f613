"""Each framework's name, title and tagline as plain data, in the wizard's order; and the rules
each framework gives the model as the registry loads (`use_frameworks`), so that the model checks
jobs against them without importing a framework.

The wizard's first screen lists the frameworks from here, so that its first frame does not wait
for the framework modules (and the model, which imports them): they load just after it. These
are copies of the modules' own words; a test asserts they equal `registry.frameworks()`, so a
framework added to the registry and not here (or renamed in one place only) fails it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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


_RULES: dict[str, Any] = {}
"""Each framework's `Framework`, which `tui.core.spec.FrameworkRules` describes."""


def known_frameworks() -> tuple[Any, ...]:
    """Every framework's rules given so far, in the registry's order."""
    return tuple(_RULES.values())


def use_frameworks(frameworks: Iterable[Any]) -> None:
    """Give the model each framework's rules; `tui.frameworks.registry` calls it as it loads."""
    _RULES.update((f.name, f) for f in frameworks)


def framework_rules(framework: str) -> Any:
    """The rules of the framework called `framework`, as `tui.frameworks.registry` gave them."""
    try:
        return _RULES[framework]
    except KeyError:
        raise RuntimeError(
            f"no rules for framework {framework!r}: import tui.frameworks.registry first"
        ) from None
