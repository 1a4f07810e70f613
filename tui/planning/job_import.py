"""A CLI v2 command-job YAML read into a JobSpec (writing one: `export`).

Every field the wizard does not model is kept (`passthrough`, `resources_extra`), the command
byte for byte and the distribution as written, so import → export changes nothing the user did
not touch; a file that cannot become a job raises `ImportProblem` naming the key and the fix.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from tui.core.spec import JobSpec
from tui.frameworks import registry
from tui.planning.job_paths import moved_path, paths_moved
from tui.planning.plan import MODELED_DISTRIBUTIONS, build_command, framework_args
from tui.planning.stacks_env import without_helpers


class ImportProblem(ValueError):
    """A job file that cannot become a JobSpec; the message names the key and the fix."""


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
    return registry.guess(dist_type, command)


def spec_from_job(data: Any, base_dir: Path | str = ".", framework: str | None = None) -> JobSpec:
    """A JobSpec from a CLI v2 command-job mapping read from a file in `base_dir`.

    `framework` overrides the inferred one. Raises `ImportProblem` or pydantic's ValidationError.
    Local paths become relative to this folder (as `code` always was); the command is kept
    byte for byte; `distribution` and `instance_count` are remembered as written (`as_written`).
    """
    if not isinstance(data, dict):
        raise ImportProblem("job: the file is not a YAML mapping of job fields")
    _refuse_preview_schema(data)
    data, stacks = without_helpers(data)
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
    if dist_type in MODELED_DISTRIBUTIONS:
        _refuse_no_processes(dist)
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
    framework_of = registry.get(fw) if fw in registry.names() else registry.get("pytorch")
    fields: dict[str, Any] = {"framework": fw, "sku": None, "shm_size": shm_size}
    if dist_type not in MODELED_DISTRIBUTIONS:
        # No distribution (or one the wizard does not model, kept as written): one process
        # per node and no rank variables.
        fields |= {"launch": "single", "nodes": instances, "gpus_per_node": 1}
    elif importer := next(
        (f for f in registry.frameworks() if f.imports_distribution(dist_type)), None
    ):  # a distribution that names its framework's own shape (workers, parameter servers)
        fields |= importer.imported_distribution(dist, instances, _int)
    else:
        pcpi = _int(
            dist.get("process_count_per_instance") or 1, "distribution.process_count_per_instance"
        )
        fields["nodes"] = instances
        per_node = pcpi == 1 and (
            registry.detect_launcher(command) is not None
            or framework_of.one_process_is_per_node(instances)
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
        else:
            fields |= {"launch": "per_process", "gpus_per_node": pcpi}
    fields |= framework_of.imported(dist_type, command, fields)

    code = data.get("code")
    env = data.get("environment_variables") or {}
    if not isinstance(env, dict):
        raise ImportProblem("environment_variables: expected a mapping of NAME: value")
    moved = paths_moved(data, base_dir, None)  # relative to this folder, like `code`
    fields |= {
        "code": moved_path(code, base_dir, None) if isinstance(code, str) else code,
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
        stacks=stacks,
        as_written={"distribution": dist, "instance_count": count, "shape": spec.shape},
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


_AT_LEAST_ONE = {
    "process_count_per_instance": "processes per node",
    "worker_count": "workers",
}


def _refuse_no_processes(dist: dict[str, Any]) -> None:
    """A count written as 0 (or less) runs nothing: refused naming the field. Read as absent,
    it was previewed as the default while the export wrote the 0 back for Azure ML to judge."""
    for key, what in _AT_LEAST_ONE.items():
        if dist.get(key) is not None and (n := _int(dist[key], f"distribution.{key}")) < 1:
            raise ImportProblem(
                f"distribution.{key}: {n}; a job needs 1 or more {what} (leave it out for "
                "the default)"
            )


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
