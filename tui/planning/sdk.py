"""The job as azure-ai-ml calls: Python code for the export, objects for the Azure backend.

`sdk_job()` describes `azure.ai.ml.command(...)` as a tree of `Call`s built from the same
`job_dict()` as the YAML, so the code a user exports and the job the backend submits are one.
Nothing here imports azure: the backend turns the calls into objects.
"""

from __future__ import annotations

import keyword
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tui.frameworks import registry
from tui.planning.export import job_dict
from tui.planning.plan import LaunchPlan, describe

_SERVICES = {
    "jupyter_lab": "JupyterLabJobService",
    "ssh": "SshJobService",
    "tensor_board": "TensorBoardJobService",
    "vs_code": "VsCodeJobService",
}
_IDENTITIES = {
    "user_identity": "UserIdentityConfiguration",
    "managed": "ManagedIdentityConfiguration",
    "managed_identity": "ManagedIdentityConfiguration",
    "aml_token": "AmlTokenConfiguration",
}
_DISTRIBUTIONS = {**registry.distributions(), "ray": "RayDistribution"}


@dataclass(frozen=True)
class Call:
    """A call of an azure-ai-ml class: printed as code by the export, made real by the backend.

    `repr()` is the Python source of the call, so nested calls print inside their parents; a
    key that is not a name is passed as `**{'key': value}` (`argument`).
    """

    name: str
    module: str
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"{self.name}({', '.join(argument(k, repr(v)) for k, v in self.kwargs.items())})"

    def calls(self) -> Iterator[Call]:
        """This call and every call nested in its arguments."""
        yield self
        for value in self.kwargs.values():
            for item in value.values() if isinstance(value, dict) else [value]:
                if isinstance(item, Call):
                    yield from item.calls()


def is_name(key: Any) -> bool:
    """Whether `key=` in a call means exactly the keyword `key`: an identifier, not a keyword
    (nor `__debug__`, which no call may name), and unchanged by the NFKC folding Python applies
    to identifiers (`ｃommand=` would arrive as `command`)."""
    return (
        isinstance(key, str)
        and key.isidentifier()
        and not keyword.iskeyword(key)
        and key != "__debug__"
        and unicodedata.normalize("NFKC", key) == key
    )


def argument(key: Any, code: str) -> str:
    """One argument of a call: `key=code`, or `**{'key': code}` when `key` is not a name.

    A job file keeps every key it has, so a key is data: written as `key=` unchecked, a key
    like `x=__import__('os').system('…'),y` would be code in the export, run with it.
    """
    return f"{key}={code}" if is_name(key) else f"**{{{key!r}: {code}}}"


TOP = "azure.ai.ml"
ENTITIES = "azure.ai.ml.entities"


def _call(name: str, kwargs: dict[str, Any], module: str = TOP) -> Call:
    return Call(name, module, dict(kwargs))


def _pretty(value: Any, indent: int) -> str:
    """repr(), but dicts of more than one item one key per line."""
    if isinstance(value, dict) and len(value) > 1:
        pad = " " * (indent + 4)
        items = "".join(f"{pad}{k!r}: {_pretty(v, indent + 4)},\n" for k, v in value.items())
        return "{\n" + items + " " * indent + "}"
    return repr(value)


def sdk_job(p: LaunchPlan, out_dir: Path | None = None) -> Call:
    """The `azure.ai.ml.command(...)` call that builds the same job as the YAML export."""
    job = job_dict(p, out_dir)
    kwargs: dict[str, Any] = {}
    for key in ("name", "display_name", "experiment_name", "description", "code", "command"):
        if key in job:
            kwargs[key] = job[key]
    if isinstance(job.get("inputs"), dict):
        kwargs["inputs"] = {
            k: _call("Input", v) if isinstance(v, dict) else v for k, v in job["inputs"].items()
        }
    if isinstance(job.get("outputs"), dict):
        kwargs["outputs"] = {
            k: _call("Output", v or {}) if isinstance(v, dict) or v is None else v
            for k, v in job["outputs"].items()
        }
    environment = job["environment"]
    if isinstance(environment, dict):
        kwargs["environment"] = _call("Environment", environment, ENTITIES)
    else:
        kwargs["environment"] = environment
    if "compute" in job:
        kwargs["compute"] = job["compute"].removeprefix("azureml:")
    if "distribution" in job:  # none: not distributed
        dist = dict(job["distribution"])
        kind = str(dist.pop("type", "")).lower()
        # A type azure-ai-ml does not know is passed as the mapping, as the YAML has it.
        kwargs["distribution"] = (
            _call(_DISTRIBUTIONS[kind], dist) if kind in _DISTRIBUTIONS else job["distribution"]
        )
    resources = dict(job.get("resources") or {})
    simple = {"instance_count", "shm_size", "instance_type", "docker_args", "locations"}
    if set(resources) <= simple:
        kwargs.update(resources)
    else:
        kwargs["resources"] = _call("JobResourceConfiguration", resources, ENTITIES)
    if "environment_variables" in job:
        kwargs["environment_variables"] = job["environment_variables"]
    if "tags" in job:
        kwargs["tags"] = job["tags"]
    if "properties" in job:
        kwargs["properties"] = job["properties"]
    for spread in ("queue_settings", "limits"):  # command() takes their fields itself
        if isinstance(job.get(spread), dict):
            for key, value in job[spread].items():
                # Never over a field already set: `limits: {command: …}` must not replace
                # the command the preview shows with another one that runs.
                kwargs.setdefault(key, value)
    if isinstance(job.get("services"), dict):
        services = {}
        for name, svc in job["services"].items():
            if not isinstance(svc, dict):  # not a service: passed as written, for the SDK to judge
                services[name] = svc
                continue
            svc = dict(svc)
            cls = _SERVICES.get(svc.get("type", ""), "JobService")
            if cls != "JobService":
                svc.pop("type")
            services[name] = _call(cls, svc, ENTITIES)
        kwargs["services"] = services
    if isinstance(job.get("identity"), dict):
        ident = dict(job["identity"])
        cls = _IDENTITIES.get(ident.pop("type", ""), "UserIdentityConfiguration")
        kwargs["identity"] = _call(cls, ident, ENTITIES)
    handled = set(kwargs) | {"$schema", "type", "resources"}
    handled |= {k for k in ("queue_settings", "limits") if isinstance(job.get(k), dict)}
    for key, value in job.items():
        if key not in handled:
            kwargs[key] = value

    return _call("command", kwargs)


def to_python(p: LaunchPlan, out_dir: Path | None = None) -> str:
    """azure-ai-ml code that builds the same job as `to_yaml` and submits it when run."""
    job = sdk_job(p, out_dir)
    used = list(job.calls())
    top = sorted({c.name for c in used if c.module == TOP})
    entities = sorted({c.name for c in used if c.module == ENTITIES})
    lines = [
        f'"""{describe(p)}',
        "",
        "Made by dtrain-tui. Run it to submit the job; it needs",
        "`pip install azure-ai-ml azure-identity` and a workspace config.json",
        '(or edit the MLClient line)."""',
        "",
        f"from azure.ai.ml import MLClient, {', '.join(top)}",
    ]
    if entities:
        lines.append(f"from azure.ai.ml.entities import {', '.join(entities)}")
    lines += [
        "from azure.identity import DefaultAzureCredential",
        "",
        "job = command(",
        *(f"    {argument(k, _pretty(v, 4))}," for k, v in job.kwargs.items()),
        ")",
        "",
        'if __name__ == "__main__":',
        "    ml_client = MLClient.from_config(credential=DefaultAzureCredential())",
        "    submitted = ml_client.jobs.create_or_update(job)",
        "    print(submitted.name, submitted.studio_url)",
        "",
    ]
    return "\n".join(lines)


# ---- the cluster ---------------------------------------------------------------------------

IDLE_SECONDS = 1800
"""Idle time before a cluster scales back to 0 nodes: long enough to submit a fix and rerun
without waiting for nodes again, short enough not to pay for an idle evening."""


def sdk_cluster(
    p: LaunchPlan, name: str, *, low_priority: bool = False, idle_seconds: int = IDLE_SECONDS
) -> Call:
    """The `AmlCompute(...)` the guide creates for distributed training, sized for plan `p`.

    `min_instances=0`: no node runs (or costs) while no job does. `max_instances` = the job's
    nodes. InfiniBand needs nothing more: a cluster's nodes are one scale set, which IB links.
    """
    kwargs: dict[str, Any] = {
        "name": name,
        "size": p.spec.sku,
        "min_instances": 0,
        "max_instances": p.instance_count,
        "tier": "low_priority" if low_priority else "dedicated",
        "idle_time_before_scale_down": idle_seconds,
    }
    return _call("AmlCompute", kwargs, ENTITIES)


def cluster_notes(p: LaunchPlan, cluster: Call) -> list[str]:
    """What the cluster's settings mean for this job, in the user's numbers."""
    kw = cluster.kwargs
    notes = [
        f"{kw['size']}, 0 to {kw['max_instances']} nodes: no node runs, and none is billed, "
        "while no job does; a job waits a few minutes while its nodes start.",
        f"Idle nodes scale down after {kw['idle_time_before_scale_down'] // 60} minutes.",
    ]
    if kw["tier"] == "low_priority":
        notes.append(
            "Low priority: much cheaper, but Azure may take a node back at any time, and in a "
            f"{p.instance_count}-node job one lost node stops every rank: checkpoint often."
        )
    else:
        notes.append("Dedicated: nodes are yours until the job ends (uses dedicated vCPU quota).")
    if p.sku is not None and p.sku.nccl_can_use_infiniband:
        notes.append(
            f"{p.sku.name} has InfiniBand ({p.sku.infiniband}); a cluster keeps its nodes in one "
            "scale set, so NCCL reaches it with no extra setting."
        )
    return notes


def cluster_code(cluster: Call) -> str:
    """The azure-ai-ml code that creates the cluster, as dtrain-tui runs it."""
    kwargs = "".join(f"    {argument(k, repr(v))},\n" for k, v in cluster.kwargs.items())
    return (
        "from azure.ai.ml import MLClient\n"
        "from azure.ai.ml.entities import AmlCompute\n"
        "from azure.identity import DefaultAzureCredential\n\n"
        f"cluster = AmlCompute(\n{kwargs})\n"
        "ml_client = MLClient.from_config(credential=DefaultAzureCredential())\n"
        "ml_client.compute.begin_create_or_update(cluster).result()\n"
    )
