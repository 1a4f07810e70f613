"""PyTorch DDP: a process group joined from RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT, set by
Azure ML (per-process) or by torchrun (per-node). torchrun is this module's launcher; the other
torch-based frameworks (Lightning, Hugging Face, DeepSpeed) build on this one."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tui.core.plan_types import EnvBuilder, Origin
from tui.frameworks.base import Framework, Glossary, Launcher, Package, Refs

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


TORCHRUN_LAUNCHER = Launcher(
    "torchrun",
    spawns=True,
    modules=("torch",),
    tool="torchrun",
    head=_torchrun_head,
    worker_env=_torchrun_env,
    detect=re.compile(
        r"(^|[\s;&|])torchrun\s|python[0-9.]*\s+-m\s+torch\.distributed\.(run|launch)\s"
    ),
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
    glossary = (
        Glossary(
            "Per-node launch",
            "Azure ML starts one process per node (torchrun, accelerate), which starts the "
            "workers and sets their ranks.",
        ),
    )

    def launcher(self, spec: JobSpec) -> Launcher | None:
        return TORCHRUN_LAUNCHER if spec.launch == "per_node" else None

    def why(self, step: str, spec: JobSpec) -> str:
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
