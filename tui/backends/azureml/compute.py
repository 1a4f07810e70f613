"""Before submitting: does the cluster fit the plan, and is there quota for it?

A job on a cluster too small for it does not fail, it waits: `max_instances` below the node
count queues it forever, a VM size with fewer GPUs than processes per node oversubscribes them,
and missing vCPU quota keeps it Queued. Saying so before the submit saves an afternoon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tui.backends.azureml.errors import azure_errors, one_line
from tui.core.catalog import find_sku
from tui.core.words import counted

if TYPE_CHECKING:
    from tui.backends.azureml.workspace import Workspace
    from tui.planning.plan import LaunchPlan


@dataclass
class ComputeCheck:
    """What was found (`facts`) and what may go wrong (`warnings`), one line each."""

    facts: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.warnings

    def lines(self) -> list[str]:
        return self.facts + [f"warning: {w}" for w in self.warnings]


def compute_name(plan: LaunchPlan) -> str | None:
    """The cluster the job names, without `azureml:`; None for serverless compute."""
    compute = plan.spec.compute
    return compute.removeprefix("azureml:") if compute else None


def check_compute(ml_client: Any, plan: LaunchPlan, ws: Workspace) -> ComputeCheck:
    """The cluster's size and node limit against the plan, and the vCPU quota for its family.

    A cluster that does not exist raises BackendError (the submit would fail); a quota lookup
    that fails is reported as a fact, never an error.
    """
    check = ComputeCheck()
    name = compute_name(plan)
    nodes = plan.instance_count
    if name is None:
        check.facts.append("compute: serverless (Azure ML picks the nodes; nothing to check)")
        return check
    with azure_errors(ws, f"looking up compute {name}", compute=name):
        compute = ml_client.compute.get(name)
    kind = str(getattr(compute, "type", "") or "").lower()
    if kind != "amlcompute":
        check.facts.append(f"compute {name}: {kind or 'unknown type'}")
        if kind == "computeinstance" and nodes > 1:
            check.warnings.append(
                f"compute {name} is a compute instance (one machine) but the job needs "
                f"{counted(nodes, 'node')}; choose a compute cluster"
            )
        return check
    size = str(getattr(compute, "size", "") or "")
    low = getattr(compute, "min_instances", None)
    high = getattr(compute, "max_instances", None)
    tier = getattr(compute, "tier", None)
    tier_text = f", {tier.replace('_', ' ')}" if tier else ""
    check.facts.append(f"cluster {name}: {size or 'unknown size'}, {low}–{high} nodes{tier_text}")
    if high is not None and high < nodes:
        check.warnings.append(
            f"cluster {name} scales to at most {high} node{'s' if high != 1 else ''} but the job "
            f"needs {nodes}; it would wait in the queue forever: raise the cluster's maximum "
            "nodes (Studio → Compute → the cluster → Edit) or choose fewer nodes"
        )
    _check_size(check, plan, name, size)
    _check_quota(check, ml_client, size, nodes, tier)
    return check


def _check_size(check: ComputeCheck, plan: LaunchPlan, name: str, size: str) -> None:
    spec = plan.spec
    chosen = spec.sku
    if chosen and size and size.lower() != chosen.lower():
        check.warnings.append(
            f"cluster {name} runs {size}, not {chosen} that the plan was made for; choose "
            f"{size} in Resources (or another cluster) so the review shows what will run"
        )
    actual = find_sku(size) if size else None
    if actual is None:
        return
    per_node = 1 if plan.tasks else plan.nodes[0].workers
    if actual.gpus < per_node:
        check.warnings.append(
            f"{size} has {actual.gpus} GPU{'s' if actual.gpus != 1 else ''} per node but the plan "
            f"runs {per_node} processes per node; lower GPUs per node to {actual.gpus} or choose "
            "a larger size"
        )
    if plan.instance_count > 1 and not actual.nccl_can_use_infiniband:
        check.warnings.append(
            f"{size} has no InfiniBand NCCL can use: {plan.instance_count} nodes will exchange "
            "gradients over Ethernet"
        )


def _check_quota(
    check: ComputeCheck, ml_client: Any, size: str, nodes: int, tier: str | None
) -> None:
    if not size:
        return
    try:
        vm = next(
            (s for s in ml_client.compute.list_sizes() if s.name.lower() == size.lower()), None
        )
        if vm is None or not vm.family:
            check.facts.append(f"quota: {size} is not offered in the workspace's region")
            return
        usages = list(ml_client.compute.list_usage())
    except Exception as err:  # quota is a nicety: any failure is reported, never raised
        check.facts.append(f"quota: not available ({one_line(str(err)) or type(err).__name__})")
        return
    low_priority = (tier or "").lower().replace(" ", "_") == "low_priority"
    binding = quota_usages(usages, vm.family, low_priority)
    if not binding:
        kind = "low-priority" if low_priority else "dedicated"
        check.facts.append(
            f"quota: Azure ML lists no {kind} vCPU usage for {vm.family} in this region; "
            "quota not checked"
        )
        return
    per_node = int(_field(vm, "v_cp_us", "vCPUs") or 0)
    vcpus = per_node * nodes
    for usage in binding:
        label = usage_name(usage, localized=True)
        used, limit = int(_field(usage, "current_value", "currentValue") or 0), int(usage.limit)
        check.facts.append(f"quota: {label}: {used} of {limit} in use; the job needs {vcpus}")
        if vcpus > limit - used:
            check.warnings.append(
                f"not enough quota ({label}): {max(0, limit - used)} vCPUs free, the job needs "
                f"{nodes} × {per_node} = {vcpus}; it will wait in the queue: request more "
                "(portal → Quotas) or use fewer nodes"
            )


_FAMILY_USAGE = re.compile(
    r"(?i)^standard\s+(.+?)\s+family\s+cluster\s+(dedicated|lowpriority)\s+vcpus$"
)
_REGIONAL_USAGE = re.compile(r"(?i)^total\s+cluster\s+(dedicated|lowpriority)\s+regional\s+vcpus$")


def family_key(family: str) -> str:
    """A VM family id or a usage's family word, compared loosely: `standardNCADSA100v4Family`
    and "Standard NCADSA100v4 Family …" both give `ncadsa100v4`."""
    core = re.sub(r"(?i)^standard|family$", "", family.strip())
    return re.sub(r"[^a-z0-9]", "", core.lower())


def quota_usages(usages: list[Any], family: str, low_priority: bool) -> list[Any]:
    """The usages that bound a cluster of `family` VMs, as `list_usage()` names them.

    Azure ML names usages in words, not by VM family id: "Standard NCADSA100v4 Family Cluster
    Dedicated vCPUs" for the family and "Total Cluster Dedicated Regional vCPUs" for the region
    ("LowPriority" for low-priority clusters). Both bound a job; a limit of -1 bounds nothing.
    The subscription's figures are taken over the copies per workspace and per cluster.
    """
    priority = "lowpriority" if low_priority else "dedicated"
    key = family_key(family)
    found: list[Any] = []
    for wanted in ("family", "regional"):
        matches = []
        for usage in usages:
            name = usage_name(usage)
            m = _FAMILY_USAGE.match(name) if wanted == "family" else _REGIONAL_USAGE.match(name)
            if m is None or m.groups()[-1].lower() != priority:
                continue
            if wanted == "family" and family_key(m.group(1)) != key:
                continue
            matches.append(usage)
        matches.sort(key=lambda u: "/workspaces/" in str(getattr(u, "id", "") or "").lower())
        usage = matches[0] if matches else None
        if usage is not None and usage.limit is not None and int(usage.limit) >= 0:
            found.append(usage)
    return found


def _field(entity: Any, name: str, wire: str) -> Any:
    """An attribute of a Usage / VmSize: azure-ai-ml 1.35 fills these entities from `as_dict()`,
    which keeps the wire names (`currentValue`, `vCPUs`) and leaves the snake_case ones None."""
    value = getattr(entity, name, None)
    return value if value is not None else getattr(entity, wire, None)


def usage_name(usage: Any, *, localized: bool = False) -> str:
    """A usage's `name.value` (or `localizedValue`): a dict in azure-ai-ml 1.35 (`as_dict()`)."""
    name = getattr(usage, "name", None)
    keys = ("localized_value", "localizedValue", "value") if localized else ("value",)
    for key in keys:
        value = name.get(key) if isinstance(name, dict) else getattr(name, key, None)
        if value:
            return str(value)
    return ""
