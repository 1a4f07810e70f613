"""The job command: the script with its arguments, wrapped in the per-node launcher if any.

Arguments are quoted for the shell so they reach the script exactly as typed. The same builder
makes the command as submitted (with `$NODE_RANK`…) and as one node runs it (values filled in).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from tui.core.spec import JobSpec


def _q(text: str) -> str:
    return shlex.quote(text)


def framework_args(spec: JobSpec) -> list[str]:
    """Arguments dtrain-tui adds to the script's own (only when it builds the command)."""
    if spec.framework == "lightning" and spec.launch != "single":  # not distributed: no flags
        return [
            "--trainer.num_nodes",
            str(spec.nodes),
            "--trainer.devices",
            str(spec.gpus_per_node),
        ]
    if spec.framework == "deepspeed":
        # The user's config file, or the one dtrain-tui builds from the plan (tui.core.deepspeed)
        # and writes into the code folder: `deepspeed.add_config_arguments` reads both flags.
        return ["--deepspeed", "--deepspeed_config", spec.deepspeed_config or "ds_config.json"]
    return []


def launcher_for(spec: JobSpec) -> str | None:
    """The per-node launcher dtrain-tui wraps the script in, or detects in a given command."""
    if spec.launch != "per_node" or spec.framework == "tensorflow":
        return None
    if spec.command is not None:
        return _detect_launcher(spec.command)
    if spec.framework == "lightning":
        return "lightning"
    if spec.framework == "huggingface":
        return spec.hf_launcher
    return "torchrun"


_LAUNCHERS = (
    (re.compile(r"(^|[\s;&|])torchrun\s"), "torchrun"),
    (re.compile(r"python[0-9.]*\s+-m\s+torch\.distributed\.(run|launch)\s"), "torchrun"),
    (re.compile(r"(^|[\s;&|])accelerate\s+launch\s"), "accelerate"),
)


def _detect_launcher(command: str) -> str | None:
    for pattern, name in _LAUNCHERS:
        if pattern.search(command):
            return name
    return None


def uses_mpi(spec: JobSpec) -> bool:
    """Horovod, and DeepSpeed asked to run under Azure ML's mpi distribution."""
    return spec.framework == "horovod" or (
        spec.framework == "deepspeed" and spec.deepspeed_via == "mpi"
    )


@dataclass(frozen=True)
class Refs:
    """How the command refers to per-node values: shell variables, or values filled in."""

    node_rank: str = "$NODE_RANK"
    master_addr: str = "$MASTER_ADDR"
    master_port: str = "$MASTER_PORT"
    mpi_rank: str = "$OMPI_COMM_WORLD_RANK"
    mpi_master: str = "$AZ_BATCH_MASTER_NODE"


def build_command(spec: JobSpec, refs: Refs = Refs()) -> str:
    """The job command. With `Refs()` it is what is submitted; with values, what a node runs."""
    if spec.command is not None:
        return spec.command
    script = [spec.script, *spec.args, *framework_args(spec)]
    launcher = launcher_for(spec)
    if launcher in (None, "lightning"):
        return "python " + " ".join(_q(a) for a in script)
    n, g = spec.nodes, spec.gpus_per_node
    if launcher == "accelerate":
        head = ["accelerate", "launch"]
        if n * g > 1:
            head.append("--multi_gpu")
        head += [
            f"--num_machines {n}",
            f"--num_processes {n * g}",
            f"--machine_rank {refs.node_rank}",
            f"--main_process_ip {refs.master_addr}",
            f"--main_process_port {refs.master_port}",
        ]
    else:
        head = [
            "torchrun",
            f"--nnodes {n}",
            f"--nproc_per_node {g}",
            f"--node_rank {refs.node_rank}",
            f"--master_addr {refs.master_addr}",
            f"--master_port {refs.master_port}",
        ]
    line = " ".join(head) + " " + " ".join(_q(a) for a in script)
    if uses_mpi(spec):
        # Under the mpi distribution Azure ML sets no NODE_RANK/MASTER_*: derive them from
        # Open MPI's world rank (one rank per node) and AZ_BATCH_MASTER_NODE ("addr:port").
        # OMPI_COMM_WORLD_NODE_RANK is *not* the node rank, despite its name.
        if refs.mpi_rank.startswith("$"):
            prefix = (
                "export NODE_RANK=$OMPI_COMM_WORLD_RANK"
                " MASTER_ADDR=${AZ_BATCH_MASTER_NODE%:*}"
                " MASTER_PORT=${AZ_BATCH_MASTER_NODE##*:} && "
            )
        else:
            addr, _, port = refs.mpi_master.rpartition(":")
            prefix = f"export NODE_RANK={refs.mpi_rank} MASTER_ADDR={addr} MASTER_PORT={port} && "
        line = prefix + line
    return line
