"""An Azure ML job reproduced on this machine: its definition as the cluster ran it, the same job
planned small here (1 node × 2 processes by default) with the per-rank variables the cluster gave
scaled to that shape, and every way the run here differs from the cluster's, said before it runs.

Pure: the job's body (`GET …/jobs/{name}`, the service's wire fields) comes in as a mapping and
the folders it uses here as paths; nothing is fetched, written or started here. The body becomes
the same CLI v2 job mapping a job YAML is (`job_import.spec_from_job` reads both), so a job from
the service and a job file plan alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui.core.plan_types import AZUREML, LaunchPlan, Target
from tui.core.spec import JobSpec
from tui.frameworks import registry
from tui.planning.job_import import ImportProblem, spec_from_job
from tui.planning.plan import plan

_PLACEHOLDER = re.compile(r"\$\{\{\s*(inputs|outputs)\.([A-Za-z0-9_]+)\s*\}\}")
_OPTIONAL = re.compile(r"(\s?)\[([^\[\]]*\$\{\{\s*inputs\.([A-Za-z0-9_]+)\s*\}\}[^\[\]]*)\]")
_SNAKE = re.compile(r"(?<=[a-z0-9])([A-Z])")
_NPROC = re.compile(r"--nproc[_-]per[_-]node[= ](\d+)|--num_processes[= ](\d+)")


@dataclass(frozen=True)
class JobDefinition:
    """What an Azure ML command job ran, read from the service's body of it."""

    name: str
    status: str
    mapping: dict[str, Any]
    """The job as a CLI v2 command-job mapping (command, distribution, resources, inputs …)."""
    code_id: str | None
    """The code asset version its snapshot is (`…/codes/<name>/versions/<v>`); None: no code."""
    environment: str | None


@dataclass(frozen=True)
class Replaced:
    """A job input or output that points elsewhere here, and what stands in for it."""

    name: str
    kind: str
    """`input` or `output`."""
    was: str
    """What the job had: its type and address."""
    here: Path
    """The folder that stands in for it on this machine."""

    def line(self) -> str:
        if self.kind == "output":
            return f"output {self.name}: written to {self.here} instead of {self.was}"
        return (
            f"input {self.name}: a stand-in folder {self.here} (it says what it replaces) "
            f"instead of {self.was}, which is not copied here"
        )


@dataclass(frozen=True)
class Reproduction:
    """The job as the cluster ran it, the plan that runs here, and what differs."""

    definition: JobDefinition
    cluster: LaunchPlan
    """The job's plan on Azure ML (its own shape): the per-rank values the cluster gave."""
    local: LaunchPlan
    replaced: tuple[Replaced, ...]
    differences: tuple[str, ...]


def definition_from_body(body: dict[str, Any]) -> JobDefinition:
    """The job the service's body describes; ImportProblem for a job that is not a command job."""
    props = body.get("properties") or {}
    name = str(body.get("name") or "")
    kind = props.get("jobType") or "Command"
    if kind != "Command":
        raise ImportProblem(
            f"job {name} is a {kind} job; only command jobs can be reproduced here "
            "(a pipeline's or sweep's child jobs are command jobs: reproduce one of those)"
        )
    resources = props.get("resources") or {}
    mapping: dict[str, Any] = {
        "command": props.get("command") or "",
        "environment_variables": dict(props.get("environmentVariables") or {}),
        "resources": {
            k: v
            for k, v in (
                ("instance_count", resources.get("instanceCount") or 1),
                ("shm_size", resources.get("shmSize")),
                ("instance_type", resources.get("instanceType")),
            )
            if v is not None
        },
        "inputs": {k: _input(v) for k, v in (props.get("inputs") or {}).items()},
        "outputs": {
            k: {"type": v.get("jobOutputType"), "path": v.get("uri")}
            for k, v in (props.get("outputs") or {}).items()
            if k != "default" and isinstance(v, dict)
        },
        "display_name": props.get("displayName"),
        "experiment_name": props.get("experimentName"),
        "compute": str(props.get("computeId") or "").rsplit("/", 1)[-1] or None,
    }
    distribution = _distribution(props.get("distribution"))
    if distribution is not None:
        mapping["distribution"] = distribution
    return JobDefinition(
        name=name,
        status=str(props.get("status") or "Unknown"),
        mapping=mapping,
        code_id=props.get("codeId"),
        environment=props.get("environmentId"),
    )


def _input(value: Any) -> Any:
    """A wire input as the job YAML writes it: a literal's value, or {type, path, mode}."""
    if not isinstance(value, dict):
        return value
    if value.get("jobInputType") == "literal":
        return value.get("value")
    return {"type": value.get("jobInputType"), "path": value.get("uri"), "mode": value.get("mode")}


def _distribution(wire: Any) -> dict[str, Any] | None:
    """The wire distribution (`distributionType` and camelCase counts) in YAML form: its type
    in lower case and each field in snake_case, as azure-ai-ml writes them both ways."""
    if not isinstance(wire, dict) or not wire.get("distributionType"):
        return None
    fields = {
        _SNAKE.sub(r"_\1", key).lower(): value
        for key, value in wire.items()
        if key != "distributionType" and value is not None
    }
    return {"type": str(wire["distributionType"]).lower(), **fields}


def local_command(definition: JobDefinition, folder: Path) -> tuple[str, tuple[Replaced, ...]]:
    """The job's command with its `${{inputs.X}}` and `${{outputs.X}}` filled in for this
    machine: a literal input is its value, a data input a stand-in folder under
    `folder/inputs/X`, an output `folder/outputs/X`; an optional `[...]` part whose input the
    job does not set is left out, as Azure ML does. A data input the command does not name
    gets its stand-in too: it is replaced all the same."""
    inputs = definition.mapping["inputs"]
    outputs = definition.mapping["outputs"]
    replaced: dict[str, Replaced] = {}

    def optional(m: re.Match[str]) -> str:
        return m.group(1) + m.group(2) if m.group(3) in inputs else ""

    def value(m: re.Match[str]) -> str:
        kind, name = m.group(1), m.group(2)
        given = (inputs if kind == "inputs" else outputs).get(name)
        if kind == "inputs" and not isinstance(given, dict):
            return "" if given is None else str(given)
        here = folder / kind / name
        was = f"{given.get('type') or 'data'} {given.get('path')}" if given else "no address"
        replaced.setdefault(f"{kind}.{name}", Replaced(name, kind[:-1], was, here))
        return str(here)

    command = _PLACEHOLDER.sub(value, _OPTIONAL.sub(optional, definition.mapping["command"]))
    for name, given in inputs.items():  # mounted on the cluster though the command names none
        if isinstance(given, dict) and f"inputs.{name}" not in replaced:
            was = f"{given.get('type') or 'data'} {given.get('path')}"
            replaced[f"inputs.{name}"] = Replaced(name, "input", was, folder / "inputs" / name)
    return command, tuple(replaced.values())


def reproduce(
    definition: JobDefinition,
    code: Path,
    folder: Path,
    *,
    nodes: int = 1,
    gpus: int = 2,
    target: Target,
    gpus_here: int,
    python: str,
    code_note: str,
) -> Reproduction:
    """The job planned at `nodes` × `gpus` on `target` (this machine), its code in `code`, its
    inputs and outputs under `folder`; with the cluster's own plan and what differs.

    `gpus_here` is how many GPUs this machine shows, `python` which Python runs it, `code_note`
    where its code came from (the snapshot, or a local folder and why)."""
    cluster_spec = spec_from_job({**definition.mapping, "code": None}, code)
    command, replaced = local_command(definition, folder)
    here = spec_from_job({**definition.mapping, "command": command, "code": str(code)}, code)
    here = _scaled(here, nodes, gpus)
    cluster = plan(cluster_spec, AZUREML)
    local = plan(here, target)
    lines = differences(cluster, local, definition, gpus_here, python, code_note, replaced)
    return Reproduction(definition, cluster, local, replaced, tuple(lines))


def _scaled(spec: JobSpec, nodes: int, gpus: int) -> JobSpec:
    """The spec at the shape asked for: a job that is not distributed keeps one process a node;
    a job with parameter servers keeps one."""
    changes: dict[str, Any] = {"nodes": nodes, "sku": None, "compute": None}
    if spec.launch != "single":
        changes["gpus_per_node"] = gpus
    if spec.parameter_servers:
        changes["parameter_servers"] = 1
    return spec.with_changes(**changes)


def differences(
    cluster: LaunchPlan,
    local: LaunchPlan,
    definition: JobDefinition,
    gpus_here: int,
    python: str,
    code_note: str,
    replaced: tuple[Replaced, ...],
) -> list[str]:
    """Every way the run here differs from the cluster's, one line each, most telling first."""
    here, there = _shape(local), _shape(cluster)
    master = f"MASTER_ADDR {local.target.master_addr}, MASTER_PORT {local.target.master_port}"
    n, n_there = _nodes(local.instance_count), _nodes(cluster.instance_count)
    if local.spec.launch == "single":  # not distributed: no rank variables there or here
        shape = f"{n} instead of {n_there}" if n != n_there else f"{n}, as on the cluster"
        why = "not distributed: the command runs once on each node, with no rank variables"
        lines = [f"{shape} ({why})"]
    elif here == there:
        lines = [f"the same shape as the cluster ({there}); {master} instead of the first node's"]
    elif local.tasks:  # processes are tasks by role: no WORLD_SIZE, each task's address here
        lines = [f"{here} instead of {there}; every task is named at 127.0.0.1 and a free port"]
    else:
        lines = [
            f"{here} instead of {there}: WORLD_SIZE {local.world_size} instead of "
            f"{cluster.world_size}; every rank variable is scaled the same way (RANK "
            f"0–{local.world_size - 1}, {master})"
        ]
    counted = _NPROC.search(local.command or "")
    if counted and local.spec.command is not None:
        lines.append(
            f"the command names its own process count ({counted.group(0)}) and runs as "
            "written: its launcher starts that many processes per node here too"
        )
    if gpus_here == 0:
        lines.append(
            "no GPU here: the ranks run on CPUs, so PyTorch's process group uses gloo, not NCCL "
            "(a script that asks for nccl fails here for that reason alone); nothing of CUDA or "
            "of the network between nodes is exercised"
        )
    else:
        lines.append(
            f"{gpus_here} GPU{'s' if gpus_here != 1 else ''} on one machine instead of the "
            f"cluster's nodes: no traffic between nodes"
        )
    lines.append(
        f"this Python ({python}) and its packages instead of the job's environment "
        f"{definition.environment or '(none named)'}"
    )
    lines.append(code_note)
    lines.extend(r.line() for r in replaced)
    return lines


def _shape(p: LaunchPlan) -> str:
    """The plan's shape in its framework's words where it has some (tasks by role), else
    nodes × processes."""
    words = registry.get(p.spec.framework).shape(p.spec, p.instance_count)
    return words or f"{_nodes(p.instance_count)} × {_processes(p.workers_per_node)}"


def _nodes(n: int) -> str:
    return f"{n} node{'s' if n != 1 else ''}"


def _processes(n: int) -> str:
    return f"{n} process{'es' if n != 1 else ''}"
