"""Warnings and explanations for a plan, in plain words with the user's own numbers."""

from __future__ import annotations

from tui.core.catalog import Sku, skus
from tui.core.files import looks_secret
from tui.core.job_checks import submit_problems
from tui.core.plan_types import LaunchPlan, Target
from tui.core.spec import JobSpec
from tui.core.words import counted
from tui.frameworks import registry
from tui.frameworks.base import Launcher
from tui.planning.command import launcher_for, uses_mpi

_DISTRIBUTION_VARS = {
    "MASTER_ADDR",
    "MASTER_PORT",
    "WORLD_SIZE",
    "NODE_RANK",
    "RANK",
    "LOCAL_RANK",
    "AZ_BATCH_MASTER_NODE",
    *(name for f in registry.frameworks() for name in f.platform_vars),
}
# The distribution types azure-ai-ml 1.35 accepts (DistributionType); others fail its schema.
_AZURE_ML_DISTRIBUTIONS = (*registry.distributions(), "ray")
# Older names of those types, still in files written for the v1 SDK and old CLI examples: the
# class names (pytorchdistribution, …) and torch.distributed's own.
_OLD_DISTRIBUTION_NAMES = {
    "torch.distributed": "pytorch",
    "torch_distributed": "pytorch",
    **{f"{kind}distribution": kind for kind in registry.distributions()},
}


def warnings(spec: JobSpec, sku: Sku | None, target: Target, instances: int) -> list[str]:
    out: list[str] = []
    if spec.sku and sku is None:
        out.append(
            f"sku: {spec.sku} is not in dtrain-tui's table, so GPUs per node "
            f"({spec.gpus_per_node}) is taken as you stated it and InfiniBand cannot be checked."
        )
    if sku and sku.retired:
        out.append(f"sku: {sku.name} is retired since {sku.retired}; choose a current size.")
    if instances > 1 and sku is not None:
        if sku.rdma and not sku.sriov:
            out.append(
                f"sku: {sku.name} has RDMA but no SR-IOV, so NCCL cannot use its InfiniBand and "
                "falls back to TCP sockets; choose an SR-IOV size such as Standard_NC24rs_v3 or "
                "an ND size."
            )
        elif not sku.nccl_can_use_infiniband:
            out.append(
                f"sku: {sku.name} has no InfiniBand: {instances} nodes will exchange gradients "
                "over Ethernet, often the bottleneck; for multi-node training choose an "
                "InfiniBand size (ND A100 v4, ND H100 v5, …)."
            )
    framework = registry.get(spec.framework)
    idle = sku.gpus - spec.gpus_per_node if sku else 0
    if idle > 0 and not framework.one_task_per_node and spec.launch != "single":
        # One task per node and a single process may drive every GPU themselves.
        assert sku is not None
        smaller = min(
            (
                s
                for s in skus()
                if spec.gpus_per_node <= s.gpus < sku.gpus
                and s.vendor == sku.vendor
                and not s.retired
                and (s.vcpus or 0) < (sku.vcpus or 0)  # a smaller VM, not a newer, dearer one
                and (s.nccl_can_use_infiniband or spec.nodes == 1)
            ),
            key=lambda s: (s.gpus, s.name),
            default=None,
        )
        out.append(
            f"sku: {spec.gpus_per_node} of {sku.name}'s {sku.gpus} GPUs per node run a rank; "
            f"the other {idle} are paid for and idle ({idle * spec.nodes} across "
            f"{counted(spec.nodes, 'node')}). Set GPUs per node to "
            f"{sku.gpus}"
            + (f", or choose {smaller.name} ({counted(smaller.gpus, 'GPU')})." if smaller else ".")
        )
        if idle_cost := _idle_cost(sku, idle * spec.nodes):
            out[-1] += f" The idle GPUs cost {idle_cost}."
    if sku and sku.vendor == "amd":
        out.append(f"sku: {sku.name} has AMD GPUs: use a ROCm environment; RCCL replaces NCCL.")
    out += framework.warnings(spec)
    if (
        spec.launch == "per_node"
        and not framework.one_task_per_node  # the framework's own way, not a launcher's
        and spec.command is not None
        and launcher_for(spec) is None
    ):
        out.append(
            "command: per-node launch, but no launcher ("
            + ", ".join(x.name for x in registry.launchers() if x.detect)
            + ") was found in your command, so each node runs a single process."
        )
    out += _unknown_distribution(spec)
    for problem in submit_problems(spec):  # accepted here; `submit` refuses them
        out.append(f"{problem}. Submitting refuses this until it is fixed.")
    for name in sorted(filter(looks_secret, spec.env)):
        out.append(
            f"env.{name}: looks like a secret; job env vars are stored in plain text in the job "
            "definition and in exported files. Keep secrets in Azure Key Vault or a workspace "
            "connection and read them at run time."
        )
    for name in sorted(set(spec.env) & _DISTRIBUTION_VARS):
        out.append(
            f"env.{name}: Azure ML or the launcher sets {name} for each rank; your value is "
            "overwritten. Remove it."
        )
    return out


def _idle_cost(sku: Sku, idle: int) -> str | None:
    """`$108.79/h dedicated (Azure retail prices, eastus, 2026-11-09 snapshot)`: `idle` GPUs'
    share of the size's price. The shipped snapshot's, so the plan stays a function of the spec."""
    from tui.core.prices import money, vm_price

    price = vm_price(sku.name, cached=False)
    if price is None or price.dedicated is None or not sku.gpus:
        return None
    return f"{money(price.dedicated * idle / sku.gpus)}/h dedicated ({price.label})"


def _unknown_distribution(spec: JobSpec) -> list[str]:
    """An imported distribution type that azure-ai-ml refuses: kept as written, and said."""
    written = spec.as_written.get("distribution")
    if not isinstance(written, dict):
        return []
    kind = str(written.get("type", ""))
    if kind.lower() in _AZURE_ML_DISTRIBUTIONS:
        return []
    meant = _OLD_DISTRIBUTION_NAMES.get(kind.lower().replace(" ", ""))
    fix = f"`type: {meant}`" if meant else "one of them"
    return [
        f"distribution.type: {kind!r} is kept as your file wrote it, but azure-ai-ml and "
        f"`az ml job create` refuse it (they accept {', '.join(_AZURE_ML_DISTRIBUTIONS)}); "
        f"fix: write {fix} in the job file."
    ]


def explain(
    spec: JobSpec,
    sku: Sku | None,
    target: Target,
    launcher: Launcher | None,
    pcpi: int,
    workers: int,
    world: int,
) -> list[str]:
    n, g = spec.nodes, spec.gpus_per_node
    mpi = uses_mpi(spec)
    out = [
        f"WORLD_SIZE = {n} node{'s' if n != 1 else ''} × {workers} process"
        f"{'es' if workers != 1 else ''} per node = {world}."
    ]
    if mpi:
        by = "Azure ML" if target.kind == "azureml" else "dtrain-tui as Azure ML would"
        who = f"Open MPI (mpirun, started by {by})"
    else:
        who = starter(target)
    if spec.launch == "per_process":
        out.append(
            f"Per-process launch: {who} starts {pcpi} process{'es' if pcpi != 1 else ''} on "
            f"each node{', one per GPU,' if sku is not None and sku.gpus else ''} and gives "
            "each its rank "
            + (
                "(OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_LOCAL_RANK)."
                if mpi
                else "(RANK, LOCAL_RANK)."
            )
        )
    elif launcher is not None and launcher.spawns:
        out.append(
            f"Per-node launch: {who} starts 1 process on each node, `{launcher.name}`, which "
            f"starts {g} workers there and sets their RANK, LOCAL_RANK and WORLD_SIZE. The node "
            f"count ({n}) is written into the command because Azure ML does not set it."
        )
    else:
        out.append(f"Per-node launch: {who} starts 1 process on each node.")
    if mpi:
        out.append(
            "AZ_BATCH_MASTER_NODE is `address:port` of node 0. "
            "OMPI_COMM_WORLD_NODE_RANK is *not* the node rank."
            + (
                " The command takes NODE_RANK from OMPI_COMM_WORLD_RANK (one rank per node)."
                if spec.launch == "per_node"
                else ""
            )
        )
    elif target.kind == "azureml":
        out.append(
            f"MASTER_ADDR is node 0's IP, known when the job starts; MASTER_PORT is "
            f"{target.master_port}. Rank 0 listens there and every rank connects to it."
        )
    else:
        out.append(
            f"On this machine every simulated node is 127.0.0.1 and MASTER_PORT is a free port "
            f"({target.master_port})."
        )
    if spec.instances > 1:
        out.append(
            "Each node runs in its own copy of the code folder, on its own disk"
            + (" (here too: one folder per simulated node)" if target.kind == "local" else "")
            + ": what one node writes there the others do not see. Shared while the job runs: "
            "mounted inputs and outputs; outputs/ is gathered after it (one name from two "
            "nodes: the last upload wins)."
        )
    out += registry.get(spec.framework).explain(spec, sku, target, launcher)
    if sku and n > 1 and sku.nccl_can_use_infiniband:
        out.append(
            f"{sku.name} has InfiniBand ({sku.interconnect}); NCCL uses it between nodes "
            "without extra settings."
        )
    return out


def starter(target: Target) -> str:
    """Who starts a job's processes on `target`: Azure ML, or here dtrain-tui standing in for it."""
    return "Azure ML" if target.kind == "azureml" else "dtrain-tui (as Azure ML would)"


def explain_single(spec: JobSpec, kept: dict | None, target: Target) -> list[str]:
    """What a job without a distribution the wizard models runs."""
    n = spec.nodes
    nodes = f"each of the {n} nodes" if n > 1 else "its node"
    if kept is not None:
        return [
            f"distribution: {kept.get('type')!r} is kept exactly as your file wrote it; "
            "dtrain-tui does not model what its processes see, so this plan shows one "
            f"process on {nodes} and no rank variables.",
        ]
    return [
        f"Not distributed: {starter(target)} starts one process on {nodes} and sets no rank "
        "variables (the job has no distribution:)"
        + (", so every node runs the same command on its own." if n > 1 else ".")
        + " Choose a launch mode in the wizard (Launch step) to make it distributed.",
    ]


def _unit(p: LaunchPlan) -> str:
    """GPUs on a GPU size; processes on a CPU size or compute dtrain-tui does not know."""
    return "GPU" if p.sku is not None and p.sku.gpus else "process"


def describe(p: LaunchPlan) -> str:
    """A one-line summary: framework, launch, shape, SKU."""
    s = p.spec
    if s.launch == "single":
        kind = p.distribution.type if p.distribution.type != "none" else "not distributed"
        return (
            f"{kind} · {s.nodes} node{'s' if s.nodes != 1 else ''} × 1 process"
            + (f" on {p.sku.name}" if p.sku else "")
            + f" · {p.target.kind}"
        )
    unit = _unit(p)
    many = "es" if unit == "process" else "s"
    sku = (
        f" on {p.sku.name} ({p.sku.gpus}× {p.sku.gpu_model}, {p.sku.interconnect})" if p.sku else ""
    )
    framework = registry.get(s.framework)
    shape = framework.shape(s, p.instance_count)  # in the framework's own words, if it has some
    if shape is not None:
        return f"{framework.title} · {shape}{',' + sku if sku else ''} · {p.target.kind}"
    shape = (
        f"{s.nodes} node{'s' if s.nodes != 1 else ''} × {s.gpus_per_node} {unit}"
        f"{many if s.gpus_per_node != 1 else ''}"
    )
    return (
        f"{framework.title} · {s.launch.replace('_', '-')} · {shape}{sku} · "
        f"WORLD_SIZE {p.world_size} · {p.target.kind}"
    )
