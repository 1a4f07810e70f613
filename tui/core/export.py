"""A plan written as a CLI v2 job YAML or as JSON; and a job YAML read back into a JobSpec.

The YAML and the Python code (`tui.core.sdk`) describe the same job: both are built from
`job_dict()`. Importing
an existing job YAML keeps every field the wizard does not model, so import → export changes
nothing the user did not touch.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
from pathlib import Path
from typing import Any, TextIO

import yaml

from tui.core.plan import LaunchPlan, build_command, describe, framework_args
from tui.core.spec import JobSpec, is_remote

SCHEMA = "https://azuremlschemas.azureedge.net/latest/commandJob.schema.json"

# The order `az ml` examples use; passthrough keys slot in where they belong.
_ORDER = (
    "$schema",
    "type",
    "name",
    "display_name",
    "experiment_name",
    "description",
    "code",
    "command",
    "inputs",
    "outputs",
    "environment",
    "compute",
    "distribution",
    "resources",
    "environment_variables",
    "tags",
    "queue_settings",
    "services",
    "identity",
    "limits",
    "properties",
)


class ImportProblem(ValueError):
    """A job file that cannot become a JobSpec; the message names the key and the fix."""


def code_for(spec_code: str | None, out_dir: Path | None) -> str | None:
    """The `code:` value as seen from the folder the YAML is written to, as `az ml` resolves it."""
    if spec_code is None or out_dir is None or is_remote(spec_code):
        return spec_code
    return os.path.relpath(Path(spec_code).resolve(), out_dir.resolve())


def job_dict(p: LaunchPlan, out_dir: Path | None = None) -> dict[str, Any]:
    """The command job as CLI v2 YAML fields, in the order people expect to read them."""
    s = p.spec
    job: dict[str, Any] = dict(s.passthrough)
    if "$schema" not in job and "type" not in job:  # an imported file keeps its own header
        job |= {"$schema": SCHEMA, "type": "command"}
    if s.display_name:
        job["display_name"] = s.display_name
    if s.experiment:
        job["experiment_name"] = s.experiment
    if s.code is not None:
        job["code"] = code_for(s.code, out_dir)
    job["command"] = p.command
    job["environment"] = p.environment
    if s.compute:
        job["compute"] = s.compute
    dist = p.distribution.as_yaml()
    if dist.get("parameter_server_count") == 0:
        del dist["parameter_server_count"]  # the SDK's default; omitting it keeps imports unchanged
    job["distribution"] = dist
    resources: dict[str, Any] = {"instance_count": p.instance_count}
    if s.shm_size:
        resources["shm_size"] = s.shm_size
    job["resources"] = resources | s.resources_extra
    if p.env_vars:
        job["environment_variables"] = dict(p.env_vars)
    order = {k: i for i, k in enumerate(_ORDER)}
    return dict(sorted(job.items(), key=lambda kv: order.get(kv[0], len(order))))


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def to_yaml(p: LaunchPlan, out_dir: Path | None = None) -> str:
    """The job as a CLI v2 command-job YAML (`az ml job create --file job.yml`)."""
    head = (
        f"# {describe(p)}\n# made by dtrain-tui; `az ml job create --file <this file>` submits it\n"
    )
    body = yaml.dump(
        job_dict(p, out_dir), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100
    )
    return head + body


def to_json(p: LaunchPlan, out_dir: Path | None = None) -> str:
    """The whole plan: the job, every node, every rank and who sets each env var."""
    out = io.StringIO()
    write_json(p, out, out_dir)
    return out.getvalue()


_RANKS_AT = '"ranks": "@ranks@"'


def write_json(p: LaunchPlan, out: TextIO, out_dir: Path | None = None) -> None:
    """`to_json` written to `out` a rank at a time: memory stays flat for any world size."""

    def env(vars_: tuple) -> list[dict[str, str]]:
        return [
            {"name": v.name, "value": v.value, "origin": v.origin.value}
            | ({"note": v.note} if v.note else {})
            for v in vars_
        ]

    data = {
        "summary": describe(p),
        "target": {
            "kind": p.target.kind,
            "master_addr": p.target.master_addr,
            "master_port": p.target.master_port,
        },
        "spec": p.spec.model_dump(mode="json"),
        "job": job_dict(p, out_dir),
        "world_size": p.world_size,
        "launcher": p.launcher,
        "nodes": [
            {
                "node": n.node,
                "role": n.role,
                "processes": n.processes,
                "workers": n.workers,
                "command": n.command,
                "env": env(n.env),
            }
            for n in p.nodes
        ],
        "ranks": "@ranks@",
        "warnings": list(p.warnings),
        "explanations": list(p.explanations),
    }
    head, tail = json.dumps(data, indent=2, ensure_ascii=False).split(_RANKS_AT)
    out.write(head + '"ranks": [')
    for i, r in enumerate(p.ranks):
        rank = {
            "rank": r.rank,
            "node": r.node,
            "local_rank": r.local_rank,
            "role": r.role,
            "task_index": r.task_index,
            "log_file": r.log_file,
            "env": env(r.env),
        }
        text = json.dumps(rank, indent=2, ensure_ascii=False).replace("\n", "\n    ")
        out.write(("," if i else "") + "\n    " + text)
    out.write(("\n  ]" if len(p.ranks) else "]") + tail + "\n")


# ---------------------------------------------------------------------------------------------
# Job YAML → JobSpec

_MODELED = {
    "code",
    "command",
    "environment",
    "compute",
    "distribution",
    "resources",
    "environment_variables",
    "experiment_name",
    "display_name",
}
_NPROC = re.compile(r"--nproc[_-]per[_-]node[= ](\d+)")
_NUM_PROCESSES = re.compile(r"--num_processes[= ](\d+)")


def infer_framework(dist_type: str, command: str) -> str:
    """The framework a job most likely uses, from its distribution and command."""
    if dist_type == "tensorflow":
        return "tensorflow"
    if "--deepspeed" in command or re.search(r"(^|\s)deepspeed\s", command):
        return "deepspeed"
    if dist_type == "mpi":
        return "horovod"
    if "--trainer." in command or "lightning" in command.lower():
        return "lightning"
    if "accelerate launch" in command or "transformers" in command:
        return "huggingface"
    return "pytorch"


def spec_from_job(data: Any, base_dir: Path | str = ".", framework: str | None = None) -> JobSpec:
    """A JobSpec from a CLI v2 command-job mapping read from a file in `base_dir`.

    `framework` overrides the inferred one. Raises `ImportProblem` or pydantic's ValidationError.
    """
    if not isinstance(data, dict):
        raise ImportProblem("job: the file is not a YAML mapping of job fields")
    kind = data.get("type", "command")
    if kind != "command":
        raise ImportProblem(f"type: {kind!r} jobs are not supported; dtrain-tui edits command jobs")
    command = data.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ImportProblem("command: missing; a command job needs the command it runs")
    command = command.strip()
    dist = data.get("distribution") or {"type": "pytorch", "process_count_per_instance": 1}
    if not isinstance(dist, dict):
        raise ImportProblem("distribution: expected a mapping with a type")
    dist_type = str(dist.get("type", "")).lower()
    if dist_type not in ("pytorch", "mpi", "tensorflow"):
        raise ImportProblem(
            f"distribution.type: {dist.get('type')!r} is not supported; "
            "use pytorch, mpi or tensorflow"
        )
    resources = data.get("resources") or {}
    if not isinstance(resources, dict):
        raise ImportProblem(
            "resources: expected a mapping, e.g. {instance_count: 2, shm_size: 16g}"
        )
    resources = dict(resources)
    instances = _int(resources.pop("instance_count", 1), "resources.instance_count")
    shm_size = resources.pop("shm_size", None)

    fw = framework or infer_framework(dist_type, command)
    fields: dict[str, Any] = {"framework": fw, "sku": None, "shm_size": shm_size}
    if dist_type == "tensorflow":
        ps = _int(dist.get("parameter_server_count") or 0, "distribution.parameter_server_count")
        workers = _int(dist.get("worker_count") or instances - ps, "distribution.worker_count")
        if workers + ps != instances:
            raise ImportProblem(
                f"resources.instance_count: is {instances} but worker_count {workers} + "
                f"parameter_server_count {ps} = {workers + ps}; make them agree"
            )
        fields |= {
            "launch": "per_node",
            "nodes": workers,
            "parameter_servers": ps,
            "gpus_per_node": 1,
        }
    else:
        pcpi = _int(
            dist.get("process_count_per_instance") or 1, "distribution.process_count_per_instance"
        )
        if fw == "deepspeed":
            fields["deepspeed_via"] = "mpi" if dist_type == "mpi" else "pytorch"
        fields["nodes"] = instances
        per_node = pcpi == 1 and (
            any(s in command for s in ("torchrun", "torch.distributed.", "accelerate launch"))
            or (fw == "lightning" and instances > 1)
        )
        if per_node:
            fields["launch"] = "per_node"
            nproc = _NPROC.search(command)
            total = _NUM_PROCESSES.search(command)
            if nproc:
                fields["gpus_per_node"] = int(nproc.group(1))
            elif total:
                fields["gpus_per_node"] = max(1, int(total.group(1)) // instances)
            else:
                fields["gpus_per_node"] = 1
            if "accelerate launch" in command:
                fields["hf_launcher"] = "accelerate"
            elif fw == "huggingface":
                fields["hf_launcher"] = "torchrun"
        else:
            fields |= {"launch": "per_process", "gpus_per_node": pcpi}

    code = data.get("code")
    if isinstance(code, str) and not is_remote(code):
        code = os.path.normpath(os.path.relpath(Path(base_dir, code).resolve()))
    env = data.get("environment_variables") or {}
    if not isinstance(env, dict):
        raise ImportProblem("environment_variables: expected a mapping of NAME: value")
    fields |= {
        "code": code,
        "environment": data.get("environment"),
        "compute": data.get("compute"),
        "env": {str(k): "" if v is None else str(v) for k, v in env.items()},
        "experiment": data.get("experiment_name"),
        "display_name": data.get("display_name"),
        "passthrough": {k: v for k, v in data.items() if k not in _MODELED},
        "resources_extra": resources,
        "command": command,
    }
    spec = JobSpec.model_validate(fields)
    return _structured(spec)


def _structured(spec: JobSpec) -> JobSpec:
    """The spec with script + args instead of a verbatim command, when that rebuilds it exactly.

    Structured specs can be edited step by step in the wizard; anything the builder would write
    differently stays verbatim so an import never rewrites the user's command.
    """
    command = spec.command or ""
    try:
        tokens = shlex.split(command)
    except ValueError:
        return spec
    scripts = [i for i, t in enumerate(tokens) if t.endswith(".py")]
    if not scripts:
        return spec
    i = scripts[0]
    script, args = tokens[i], tokens[i + 1 :]
    for trial in (args, *_without_framework_args(spec, script, args)):
        try:
            candidate = spec.with_changes(command=None, script=script, args=tuple(trial))
        except ValueError:
            continue
        if build_command(candidate) == command:
            return candidate
    return spec


def _without_framework_args(spec: JobSpec, script: str, args: list[str]) -> list[list[str]]:
    try:
        probe = spec.with_changes(command=None, script=script, args=())
    except ValueError:
        return []
    extra = framework_args(probe)
    if extra and args[-len(extra) :] == extra:
        return [args[: -len(extra)]]
    return []


def _int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ImportProblem(f"{key}: expected a whole number, got {value!r}")
    try:
        return int(value)
    except ValueError:
        raise ImportProblem(f"{key}: expected a whole number, got {value!r}") from None


def load_job_file(path: Path | str, framework: str | None = None) -> JobSpec:
    """A JobSpec from a job YAML file; problems raise ImportProblem naming the file."""
    from tui.core.reading import InputProblem, read_yaml

    path = Path(path)
    try:
        data = read_yaml(path)  # size-capped, any common encoding, alias bombs refused
    except InputProblem as err:
        raise ImportProblem(str(err)) from None
    return spec_from_job(data, path.parent, framework)
