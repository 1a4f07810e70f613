"""A plan written as a CLI v2 job YAML or as JSON (reading a job YAML back: `job_import`).

The YAML and the Python code (`tui.planning.sdk`) describe the same job: both are built from
`job_dict()`. A job that was imported keeps every field the wizard does not model, so import →
export changes nothing the user did not touch.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, TextIO

import yaml

from tui.planning.job_paths import moved_path, paths_moved
from tui.planning.plan import MODELED_DISTRIBUTIONS, LaunchPlan, describe

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


def code_for(spec_code: str | None, out_dir: Path | None) -> str | None:
    """The `code:` value as seen from the folder the YAML is written to, as `az ml` resolves it."""
    return moved_path(spec_code, None, out_dir)


def _same_distribution(written: Any, dist: dict[str, Any]) -> bool:
    """Whether a file's `distribution:` means what the plan's does (case, omitted defaults)."""
    if not isinstance(written, dict) or not dist:
        return written is None and not dist
    kind = str(written.get("type", "")).lower()
    if kind != dist["type"]:
        return False
    if kind not in MODELED_DISTRIBUTIONS:
        return written == dist
    if "worker_count" in dist:  # an omitted worker_count is instance_count - parameter servers
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
        job["code"] = code_for(s.code, out_dir)  # the other local paths: paths_moved below
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
    if p.inputs:  # dtrain-tui's own (its in-job helpers), after the user's
        job["inputs"] = {**(job.get("inputs") or {}), **p.inputs}
    job = paths_moved(job, None, out_dir)
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
