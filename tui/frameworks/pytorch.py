"""PyTorch DDP: a process group joined from RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT, set by
Azure ML (per-process) or by torchrun (per-node). torchrun is this module's launcher; the other
torch-based frameworks (Lightning, Hugging Face, DeepSpeed) build on this one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.core.plan_types import EnvBuilder, Origin
from tui.core.script_facts import CheckPlan, Finding, ScriptFacts, constant, keyword
from tui.frameworks.base import Framework, Launcher, Package, Refs

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


# ---- the script check -----------------------------------------------------------------------

SAME_DEVICE_BACKEND = 'backend="nccl" if torch.cuda.is_available() else "gloo"'


def ddp_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A process group from `env://` with a backend that fits the device (nccl on GPUs, gloo
    on CPUs) and a timeout; LOCAL_RANK picks the device; a DistributedSampler, and `set_epoch`
    each epoch; checkpoints and metrics written by rank 0 only."""
    inits = src.find("init_process_group")
    if not inits and not src.find("init_distributed", "initialize"):
        yield Finding(
            None,
            "no process group: nothing calls torch.distributed.init_process_group, so each "
            "process trains alone",
            f"dist.init_process_group({SAME_DEVICE_BACKEND}, "
            'init_method="env://", timeout=datetime.timedelta(minutes=30))',
            "no_process_group",
        )
    for call in inits:
        backend = constant(keyword(call, "backend", 0))
        if backend == "nccl" and not plan.gpus:
            yield Finding(
                call.lineno,
                'backend="nccl" needs GPUs; this machine\'s rehearsal runs on CPUs',
                SAME_DEVICE_BACKEND,
                "nccl_on_cpu",
            )
        elif backend == "gloo" and plan.gpus:
            yield Finding(
                call.lineno,
                'backend="gloo" on GPUs is many times slower than NCCL',
                SAME_DEVICE_BACKEND,
                "gloo_on_gpu",
                "warning",
            )
        method = constant(keyword(call, "init_method"))
        if isinstance(method, str) and method != "env://":
            yield Finding(
                call.lineno,
                f"init_method={method!r}: Azure ML and torchrun give the rendezvous through "
                "MASTER_ADDR / MASTER_PORT",
                'init_method="env://" (or leave it out)',
                "init_method_not_env",
            )
        if keyword(call, "timeout") is None:
            yield Finding(
                call.lineno,
                "no timeout: a large model's first step or checkpoint can outlast the "
                "default and stop every rank",
                "timeout=datetime.timedelta(minutes=60) in init_process_group",
                "no_init_timeout",
                "advice",
            )
    if not src.has("LOCAL_RANK", "local_rank", "OMPI_COMM_WORLD_LOCAL_RANK"):
        yield Finding(
            None,
            "LOCAL_RANK is never read, so every process on a node uses the same GPU",
            'torch.cuda.set_device(int(os.environ["LOCAL_RANK"])) before building the model',
            "device_not_local_rank",
        )
    loaders = src.find("DataLoader")
    samplers = src.find("DistributedSampler")
    if loaders and not samplers and not src.has("DistributedSampler"):
        yield Finding(
            loaders[0].lineno,
            "a DataLoader without a DistributedSampler: every rank reads the whole dataset",
            "DataLoader(dataset, sampler=DistributedSampler(dataset), ...)",
            "no_distributed_sampler",
        )
    if (samplers or src.has("DistributedSampler")) and not src.find("set_epoch"):
        line = samplers[0].lineno if samplers else None
        yield Finding(
            line,
            "DistributedSampler without set_epoch(): every epoch shuffles the same way",
            "sampler.set_epoch(epoch) at the start of each epoch",
            "sampler_no_set_epoch",
            "warning",
        )
    yield from rank_zero_writes(src, plan)


_SAVES = ("save_checkpoint", "save_model", "save_pretrained")
_LOGS = ("log_metric", "log_metrics", "log_param", "log_params", "log_artifact")


def rank_zero_writes(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Checkpoints and metrics written on every rank (one finding makes the point)."""
    for name, call in src.calls:
        last = name.split(".")[-1]
        saving = name == "torch.save" or last in _SAVES
        if not saving and not (name.startswith("mlflow.") and last in _LOGS):
            continue
        if src.guarded_by_rank(call):
            continue
        yield Finding(
            call.lineno,
            f"{name}() runs on every rank: "
            + ("each writes the same checkpoint" if saving else "each logs the same metric"),
            "only on rank 0: `if int(os.environ.get('RANK', 0)) == 0:`",
            "unguarded_write" if saving else "unguarded_log",
            "error" if saving else "advice",
        )
        return


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
    script_rules = (ddp_rules,)

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
