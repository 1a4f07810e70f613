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

from tui.core.plan import (
    MODELED_DISTRIBUTIONS,
    LaunchPlan,
    build_command,
    describe,
    framework_args,
)
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
    return _moved(spec_code, None, out_dir)


def _moved(value: Any, src: Path | str | None, dest: Path | None) -> Any:
    """A local path written relative to `src` (None: this folder), as seen from `dest`.

    `az ml` resolves every local path in a job file against the file's folder; remote forms
    (azureml:, https://, wasbs://, git+…, ARM ids) are kept as written.
    """
    if not isinstance(value, str) or not value or is_remote(value):
        return value
    prefix = "file:" if value.startswith("file:") else ""
    path = value.removeprefix(prefix)
    if src is None and dest is None:
        return value
    where = Path(src or ".", path).resolve()
    return prefix + os.path.normpath(os.path.relpath(where, (dest or Path(".")).resolve()))


def _paths_moved(job: dict[str, Any], src: Path | str | None, dest: Path | None) -> dict:
    """`job` with every local path it can hold moved from `src` to `dest` (see `_moved`)."""
    out = dict(job)
    env = out.get("environment")
    if isinstance(env, dict):
        env = dict(env)
        if "conda_file" in env:
            env["conda_file"] = _moved(env["conda_file"], src, dest)
        if isinstance(env.get("build"), dict):
            env["build"] = dict(env["build"], path=_moved(env["build"].get("path"), src, dest))
        out["environment"] = env
    elif isinstance(env, str) and env.startswith("file:"):
        out["environment"] = _moved(env, src, dest)
    for section in ("inputs", "outputs"):
        if isinstance(out.get(section), dict):
            out[section] = {
                k: dict(v, path=_moved(v["path"], src, dest))
                if isinstance(v, dict) and "path" in v
                else v
                for k, v in out[section].items()
            }
    return out


def _same_distribution(written: Any, dist: dict[str, Any]) -> bool:
    """Whether a file's `distribution:` means what the plan's does (case, omitted defaults)."""
    if not isinstance(written, dict) or not dist:
        return written is None and not dist
    kind = str(written.get("type", "")).lower()
    if kind != dist["type"]:
        return False
    if kind not in MODELED_DISTRIBUTIONS:
        return written == dist
    if kind == "tensorflow":  # an omitted worker_count is instance_count - parameter servers
        return (written.get("parameter_server_count") or 0) == (
            dist.get("parameter_server_count") or 0
        ) and written.get("worker_count") in (None, dist["worker_count"])
    return (written.get("process_count_per_instance") or 1) == dist["process_count_per_instance"]


def job_dict(p: LaunchPlan, out_dir: Path | None = None) -> dict[str, Any]:
    """The command job as CLI v2 YAML fields, in the order people expect to read them.

    An imported job's own `distribution` and `instance_count` are written back as its file had
    them (absent stays absent) until the user changes what they derive from (`JobSpec.shape`).
    """
    s = p.spec
    job: dict[str, Any] = dict(s.passthrough)
    if "$schema" not in job and "type" not in job:  # an imported file keeps its own header
        job |= {"$schema": SCHEMA, "type": "command"}
    if s.display_name:
        job["display_name"] = s.display_name
    if s.experiment:
        job["experiment_name"] = s.experiment
    if s.code is not None:
        job["code"] = code_for(s.code, out_dir)  # the other local paths: _paths_moved below
    job["command"] = p.command
    job["environment"] = p.environment
    if s.compute:
        job["compute"] = s.compute
    written = s.as_written
    unchanged = written.get("shape") == s.shape
    dist = p.distribution.as_yaml()
    if dist.get("parameter_server_count") == 0:
        del dist["parameter_server_count"]  # the SDK's default; omitting it keeps imports unchanged
    old = written.get("distribution")
    if "distribution" in written and (unchanged or _same_distribution(old, dist)):
        dist = old or {}
    elif isinstance(old, dict) and str(old.get("type", "")).lower() == dist.get("type"):
        dist = old | {k: v for k, v in dist.items() if k != "type"}  # the file's spelling
    if dist:
        job["distribution"] = dist
    count = p.instance_count
    if "instance_count" in written and unchanged:
        count = written["instance_count"]
    resources: dict[str, Any] = {} if count is None else {"instance_count": count}
    if s.shm_size:
        resources["shm_size"] = s.shm_size
    if resources | s.resources_extra:
        job["resources"] = resources | s.resources_extra
    if p.env_vars:
        job["environment_variables"] = dict(p.env_vars)
    job = _paths_moved(job, None, out_dir)
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
# `--deepspeed_config ds.json` (deepspeed.add_config_arguments) or `--deepspeed ds.json` (HF)
_DS_CONFIG = re.compile(r"--deepspeed(?:_config)?[= ]((?!-)\S+\.json\b['\"]?)")


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
    Local paths become relative to this folder (as `code` always was); the command is kept
    byte for byte; `distribution` and `instance_count` are remembered as written (`as_written`).
    """
    if not isinstance(data, dict):
        raise ImportProblem("job: the file is not a YAML mapping of job fields")
    _refuse_preview_schema(data)
    kind = data.get("type", "command")
    if kind != "command":
        raise ImportProblem(f"type: {kind!r} jobs are not supported; dtrain-tui edits command jobs")
    command = data.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ImportProblem("command: missing; a command job needs the command it runs")
    dist = data.get("distribution")
    if dist is not None and not isinstance(dist, dict):
        raise ImportProblem("distribution: expected a mapping with a type")
    dist_type = str(dist.get("type", "")).lower() if dist else ""
    resources = data.get("resources") or {}
    if not isinstance(resources, dict):
        raise ImportProblem(
            "resources: expected a mapping, e.g. {instance_count: 2, shm_size: 16g}"
        )
    resources = dict(resources)
    count = resources.pop("instance_count", None)
    instances = 1 if count is None else _int(count, "resources.instance_count")
    shm_size = resources.pop("shm_size", None)

    fw = framework or infer_framework(dist_type, command)
    fields: dict[str, Any] = {"framework": fw, "sku": None, "shm_size": shm_size}
    if dist_type not in MODELED_DISTRIBUTIONS:
        # No distribution (or one the wizard does not model, kept as written): one process
        # per node and no rank variables.
        fields |= {"launch": "single", "nodes": instances, "gpus_per_node": 1}
    elif dist_type == "tensorflow":
        ps = _int(dist.get("parameter_server_count") or 0, "distribution.parameter_server_count")
        workers = _int(dist.get("worker_count") or instances - ps, "distribution.worker_count")
        # worker_count + parameter_server_count may differ from instance_count: azure-ai-ml
        # accepts that, the plan warns and only `submit` refuses it (spec.submit_problems).
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
    if fw == "deepspeed":
        config = _DS_CONFIG.search(command)
        if config:  # the command names its config: no generated one, no warning about none
            fields["deepspeed_config"] = config.group(1).strip("'\"")

    code = data.get("code")
    env = data.get("environment_variables") or {}
    if not isinstance(env, dict):
        raise ImportProblem("environment_variables: expected a mapping of NAME: value")
    moved = _paths_moved(data, base_dir, None)  # relative to this folder, like `code`
    fields |= {
        "code": _moved(code, base_dir, None) if isinstance(code, str) else code,
        "environment": moved.get("environment"),
        "compute": data.get("compute"),
        "env": {str(k): "" if v is None else str(v) for k, v in env.items()},
        "experiment": data.get("experiment_name"),
        "display_name": data.get("display_name"),
        "passthrough": {k: v for k, v in moved.items() if k not in _MODELED},
        "resources_extra": resources,
        "command": command,
    }
    spec = JobSpec.model_validate(fields)
    spec = spec.with_changes(
        as_written={"distribution": dist, "instance_count": count, "shape": spec.shape}
    )
    return _structured(spec)


_PREVIEW_SCHEMA = (
    ("compute", "target", "compute: {target: X} is now compute: X"),
    ("code", "local_path", "code: {local_path: X} is now code: X"),
    ("environment", "docker", "environment: {docker: {image: X}} is now environment: {image: X}"),
)


def _refuse_preview_schema(data: dict[str, Any]) -> None:
    """The 2021 preview job schema: one line saying so and how to convert it."""
    found = [
        how
        for key, old, how in _PREVIEW_SCHEMA
        if isinstance(data.get(key), dict) and old in data[key]
    ]
    if found:
        raise ImportProblem(
            "this is the old preview job schema, which azure-ai-ml no longer reads; convert it: "
            + "; ".join(found)
            + " (learn.microsoft.com/azure/machine-learning/reference-yaml-job-command)"
        )


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
