"""`plan()`: the one place that turns a `JobSpec` into nodes, ranks, commands and env vars.

Everything the user sees in the review, every export and both backends read the `LaunchPlan`;
nothing else computes a rank or an env var. The plan is pure: where it runs (an Azure ML
cluster, or this machine with loopback addresses and free ports) comes in as a `Target`. What
differs between frameworks comes from the framework's module (`tui.frameworks`): its launcher,
what it sets in each process, its config file, its words; a framework whose processes are not
ranks of a process group plans itself.
"""

from __future__ import annotations

import dataclasses

from tui.core.catalog import default_environment, find_sku
from tui.core.plan_types import (
    AZUREML,
    AZUREML_MASTER_PORT,
    TASK_PORT,
    Distribution,
    EnvBuilder,
    EnvVar,
    LaunchPlan,
    NodePlan,
    Origin,
    RankPlan,
    Ranks,
    Target,
)
from tui.core.spec import JobSpec
from tui.frameworks import registry
from tui.frameworks.base import open_mpi_env
from tui.planning.command import Refs, build_command, launcher_of
from tui.planning.command import framework_args as framework_args  # re-exported
from tui.planning.command import launcher_for as launcher_for  # re-exported
from tui.planning.explain import describe as describe  # re-exported: the plan's one-line summary
from tui.planning.explain import explain, explain_single
from tui.planning.explain import warnings as plan_warnings
from tui.planning.stacks_env import with_stacks

# Callers know the plan's types as `tui.planning.plan.X`; they live in plan_types so that explain.py
# can read a plan without importing plan.py back.
__all__ = [
    "AZUREML",
    "AZUREML_MASTER_PORT",
    "TASK_PORT",
    "Distribution",
    "EnvVar",
    "LaunchPlan",
    "NodePlan",
    "Origin",
    "RankPlan",
    "Ranks",
    "Target",
    "describe",
    "framework_args",
    "launcher_for",
    "plan",
]

# ---------------------------------------------------------------------------------------------
# The plan


REHEARSAL = Origin("dtrain-tui (as Azure ML would)", "platform")
"""Who sets the platform's variables in a rehearsal on this machine: dtrain-tui's local backend,
standing in for Azure ML (the plan says so rather than name a service that is not there)."""


def plan(spec: JobSpec, target: Target = AZUREML) -> LaunchPlan:
    """Every node, rank, command and env var of `spec` when it runs on `target`, with what
    dtrain-tui adds inside each process (its stack dumper) shown like the rest."""
    made = _plan(spec, target)
    return with_stacks(_rehearsed(made) if target.kind == "local" else made)


def _rehearsed(p: LaunchPlan) -> LaunchPlan:
    """`p` with Azure ML's variables set by `REHEARSAL`, the one who sets them on this machine
    (frameworks that plan themselves set them too, so every node and rank is read once here)."""
    inner = p.ranks

    def rank(index: int) -> RankPlan:
        made = inner[index]
        return dataclasses.replace(made, env=_as_rehearsal(made.env))

    nodes = tuple(dataclasses.replace(n, env=_as_rehearsal(n.env)) for n in p.nodes)
    return dataclasses.replace(p, nodes=nodes, ranks=Ranks(len(inner), rank))


_REPLACED = f"replaces {Origin.AZUREML.value}'s "  # as EnvBuilder writes a replaced value's note


def _as_rehearsal(env: tuple[EnvVar, ...]) -> tuple[EnvVar, ...]:
    """`env` with Azure ML's variables (and notes naming it) set by `REHEARSAL`."""
    return tuple(
        dataclasses.replace(
            v,
            origin=REHEARSAL if v.origin is Origin.AZUREML else v.origin,
            note=(
                f"replaces {v.note.removeprefix(_REPLACED)}, set as Azure ML would"
                if v.note.startswith(_REPLACED)
                else v.note
            ),
        )
        for v in env
    )


def _plan(spec: JobSpec, target: Target) -> LaunchPlan:
    if spec.launch == "single":
        return _plan_single(spec, target)
    framework = registry.get(spec.framework)
    sku = find_sku(spec.sku)
    warnings = plan_warnings(spec, sku, target, spec.instances)
    own = framework.plan(spec, target, sku, build_command(spec), warnings)
    if own is not None:
        return own

    n, g = spec.nodes, spec.gpus_per_node
    mpi = framework.uses_mpi(spec)
    launcher = launcher_of(spec)
    spawns = launcher is not None and launcher.spawns
    pcpi = g if spec.launch == "per_process" else 1
    workers = g if (spec.launch == "per_process" or spawns) else 1
    world = n * workers
    addr, port = target.master_addr, target.master_port
    local = target.kind == "local"
    command = build_command(spec)
    user = EnvBuilder().set(Origin.USER, **spec.env)
    discovers = framework.discovers_ranks(spec)

    nodes: list[NodePlan] = []
    node_envs: list[EnvBuilder] = []
    for node in range(n):
        node_env = EnvBuilder(user.vars)
        if mpi:
            node_env.set(Origin.AZUREML, AZ_BATCH_MASTER_NODE=f"{addr}:{port}")
            if discovers:
                node_env.set(Origin.AZUREML, **framework.node_env(target, n, addr))
        else:
            node_env.set(
                Origin.AZUREML,
                MASTER_ADDR=addr,
                MASTER_PORT=port,
                WORLD_SIZE=n * pcpi,
                NODE_RANK=node,
            )
        if pcpi == 1:  # the one process Azure ML starts here (the launcher, per-node)
            if mpi:
                node_env.set(Origin.OPENMPI, **open_mpi_env(node, 0, n, 1, local))
            else:
                node_env.set(Origin.AZUREML, RANK=node, LOCAL_RANK=0)
        node_envs.append(node_env)
        refs = Refs(str(node), addr, str(port), str(node), f"{addr}:{port}")
        nodes.append(
            NodePlan(node, "worker", node_env.done(), build_command(spec, refs), pcpi, workers)
        )

    def make_rank(rank: int) -> RankPlan:
        node, local_rank = divmod(rank, workers)
        env = EnvBuilder(node_envs[node].vars)
        started = local_rank if pcpi > 1 else 0  # the process Azure ML / mpirun started
        started_rank = node * pcpi + started
        if mpi:
            env.set(Origin.OPENMPI, **open_mpi_env(started_rank, started, n, pcpi, local))
            if spec.launch == "per_node":
                env.set(Origin.COMMAND, NODE_RANK=node, MASTER_ADDR=addr, MASTER_PORT=port)
        else:
            env.set(Origin.AZUREML, RANK=started_rank, LOCAL_RANK=started)
        if spawns and launcher.worker_env is not None:
            launcher.worker_env(env, n, workers, node, local_rank, addr, port)
        framework.process_env(env, spec, target, sku.vcpus if sku else None, launcher)
        return RankPlan(rank, node, local_rank, env.done(), f"user_logs/std_log_process_{rank}.txt")

    explanations = explain(spec, sku, target, launcher, pcpi, workers, world)
    config = framework.config_file(spec, sku, world)
    explanations += framework.notes(spec, target, config)
    if mpi and local and n > 1:
        warnings.append(
            f"On this machine all {n} simulated nodes are one host, so Open MPI reports "
            f"OMPI_COMM_WORLD_LOCAL_RANK 0..{n * pcpi - 1} and LOCAL_SIZE {n * pcpi}"
            + framework.one_host_note(spec)
            + f"; on the cluster they are 0..{pcpi - 1} and {pcpi} per node."
        )
    return LaunchPlan(
        spec=spec,
        target=target,
        sku=sku,
        instance_count=n,
        distribution=Distribution("mpi" if mpi else "pytorch", process_count_per_instance=pcpi),
        command=command,
        environment=spec.environment or default_environment(spec.framework),
        launcher=launcher.name if launcher else None,
        world_size=world,
        nodes=tuple(nodes),
        ranks=Ranks(world, make_rank),
        warnings=tuple(warnings),
        explanations=tuple(explanations),
        env_vars=dict(spec.env),
        config_file=config,
        launcher_spawns=spawns,
    )


MODELED_DISTRIBUTIONS = tuple(registry.distributions())
"""The distribution types a framework module plans (pytorch, mpi, …)."""


def _plan_single(spec: JobSpec, target: Target) -> LaunchPlan:
    """No distribution: Azure ML (or, here, dtrain-tui) runs the command once on each node and
    sets no rank variables.

    A distribution type the wizard does not model (ray, …) is planned the same way and written
    back as it was: dtrain-tui does not claim to know what its processes see.
    """
    sku = find_sku(spec.sku)
    n = spec.nodes
    command = build_command(spec)
    env = EnvBuilder().set(Origin.USER, **spec.env).done()
    nodes = tuple(NodePlan(node, "worker", env, command, 1, 1) for node in range(n))
    written = spec.as_written.get("distribution")
    kept = (
        isinstance(written, dict)
        and str(written.get("type", "")).lower() not in MODELED_DISTRIBUTIONS
    )
    distribution = (
        Distribution(str(written.get("type")), as_written=written)  # type: ignore[union-attr]
        if kept
        else Distribution("none")
    )
    return LaunchPlan(
        spec=spec,
        target=target,
        sku=sku,
        instance_count=n,
        distribution=distribution,
        command=command,
        environment=spec.environment or default_environment(spec.framework),
        launcher=None,
        world_size=n,
        nodes=nodes,
        ranks=Ranks(n, lambda r: RankPlan(r, r, 0, env, f"user_logs/std_log_process_{r}.txt")),
        warnings=tuple(plan_warnings(spec, sku, target, n)),
        explanations=tuple(explain_single(spec, distribution.as_written, target)),
        env_vars=dict(spec.env),
    )
