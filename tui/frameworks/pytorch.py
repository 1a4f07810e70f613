"""PyTorch DDP: a process group joined from RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT, set by
Azure ML (per-process) or by torchrun (per-node). torchrun is this module's launcher; the other
torch-based frameworks (Lightning, Hugging Face, DeepSpeed) build on this one."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.core.plan_types import EnvBuilder, Origin
from tui.frameworks.base import Framework, Launcher, Package, Refs
from tui.frameworks.pytorch_data import data_rules
from tui.frameworks.pytorch_script import process_group_rules
from tui.frameworks.pytorch_wrap import wrapped_copy_rules
from tui.frameworks.pytorch_writes import write_rules

if TYPE_CHECKING:
    from tui.core.spec import JobSpec

TORCHRUN = Origin("torchrun", "launcher")


def torchrun_worker_env(
    env: EnvBuilder,
    origin: Origin,
    n: int,
    g: int,
    node: int,
    local: int,
    addr: str,
    port: int,
) -> None:
    """What torch.distributed.run (which `accelerate launch` uses too) gives each worker."""
    defaults = {"TORCH_NCCL_ASYNC_ERROR_HANDLING": "1"}  # only when unset
    if g > 1:
        defaults["OMP_NUM_THREADS"] = "1"  # with a warning in the log, to avoid oversubscription
    env.defaults(origin, **defaults)
    env.set(
        origin,
        TORCHELASTIC_USE_AGENT_STORE="True",
        TORCHELASTIC_SIGNALS_TO_HANDLE="SIGTERM,SIGINT,SIGHUP,SIGQUIT",
        RANK=node * g + local,
        LOCAL_RANK=local,
        WORLD_SIZE=n * g,
        LOCAL_WORLD_SIZE=g,
        GROUP_RANK=node,
        GROUP_WORLD_SIZE=n,
        ROLE_RANK=node * g + local,
        ROLE_WORLD_SIZE=n * g,
        ROLE_NAME="default",
        MASTER_ADDR=addr,
        MASTER_PORT=port,
        TORCHELASTIC_RESTART_COUNT=0,
        TORCHELASTIC_MAX_RESTARTS=0,
        TORCHELASTIC_RUN_ID="none",
    )


def _torchrun_head(spec: JobSpec, refs: Refs) -> list[str]:
    return [
        "torchrun",
        f"--nnodes {spec.nodes}",
        f"--nproc_per_node {spec.gpus_per_node}",
        f"--node_rank {refs.node_rank}",
        f"--master_addr {refs.master_addr}",
        f"--master_port {refs.master_port}",
    ]


def _torchrun_env(env: EnvBuilder, *args: Any) -> None:
    torchrun_worker_env(env, TORCHRUN, *args)


def elastic_split_env(log_dir: Path, marker_template: str) -> dict[str, str]:
    """torch.distributed.run with `--tee 3` (here `PET_TEE=3`, so the command stays the plan's)
    copies every worker line to its own stdout/stderr behind a header, and
    `TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE` makes that header carry the global rank."""
    return {
        "PET_TEE": "3",
        "PET_LOG_DIR": str(log_dir / "torchrun"),
        "TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE": marker_template,
    }


ELASTIC_ROOT_CAUSE = (
    r"Root Cause \(first observed failure\):.*?rank\s*:\s*(\d+).*?exitcode\s*:\s*(-?\d+)"
)
"""torch.distributed.run's ChildFailedError summary: the first rank that failed, and its code."""


TORCHRUN_LAUNCHER = Launcher(
    "torchrun",
    spawns=True,
    modules=("torch",),
    tool="torchrun",
    install="install PyTorch there (`pip install torch`)",
    head=_torchrun_head,
    worker_env=_torchrun_env,
    detect=re.compile(
        r"(^|[\s;&|])torchrun\s|python[0-9.]*\s+-m\s+torch\.distributed\.(run|launch)\s"
    ),
    split_env=elastic_split_env,
    root_cause=ELASTIC_ROOT_CAUSE,
)


class PyTorch(Framework):
    """PyTorch DistributedDataParallel."""

    name = "pytorch"
    title = "PyTorch DDP"
    tagline = "DistributedDataParallel; most jobs"
    launchers = (TORCHRUN_LAUNCHER,)
    origins = (TORCHRUN,)
    packages = (Package("torch", "torch", "torch"),)
    assumed_modules = ("torch",)
    example = "pytorch-ddp"
    sample_script = "train_ddp.py"
    guess_order = 1000  # what a job is when nothing says otherwise
    mechanisms = ("init_process_group", "DistributedDataParallel", "torchrun", "DataLoader")
    script_rules = (process_group_rules, data_rules, write_rules, wrapped_copy_rules)

    def launcher(self, spec: JobSpec) -> Launcher | None:
        return TORCHRUN_LAUNCHER if spec.launch == "per_node" else None

    def why(self, step: str, spec: JobSpec) -> str:
        if step == "code":
            return (
                "**Shared memory**: PyTorch DataLoader workers pass batches through /dev/shm; "
                "Azure ML's 2 GB default makes them crash with *Bus error*, so 16g is the "
                "default here.\n\n"
                "**NCCL_DEBUG=INFO** prints `NET/IB` in the log when InfiniBand is really used."
            )
        if step == "framework":
            world = spec.nodes * spec.gpus_per_node
            return (
                "PyTorch DDP keeps a full copy of the model on every GPU. Each process trains on "
                "its own slice of the data and the gradients are averaged with an all-reduce "
                f"after every step, so {world} GPUs see {world}× the data per step."
            )
        return ""

    def recognises(self, distribution: str, command: str) -> bool:
        return True

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        changes: dict[str, Any] = {"script": self.sample_script}
        if not spec.args:
            changes["args"] = ("--epochs", "3")
        return changes
