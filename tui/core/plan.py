"""`plan()`: the one place that turns a `JobSpec` into nodes, ranks, commands and env vars.

Everything the user sees in the review, every export and both backends read the `LaunchPlan`;
nothing else computes a rank or an env var. The plan is pure: where it runs (an Azure ML
cluster, or this machine with loopback addresses and free ports) comes in as a `Target`.
"""

from __future__ import annotations

import json

from tui.core import deepspeed
from tui.core.catalog import default_environment, find_sku
from tui.core.command import Refs, build_command, launcher_for, uses_mpi
from tui.core.command import framework_args as framework_args  # re-exported
from tui.core.explain import describe as describe  # re-exported: the plan's one-line summary
from tui.core.explain import explain, explain_single
from tui.core.explain import warnings as plan_warnings
from tui.core.plan_types import (
    AZUREML,
    AZUREML_MASTER_PORT,
    TF_PORT,
    Distribution,
    EnvVar,
    LaunchPlan,
    NodePlan,
    Origin,
    RankPlan,
    Ranks,
    Target,
)
from tui.core.spec import JobSpec

# Callers know the plan's types as `tui.core.plan.X`; they live in plan_types so that explain.py
# can read a plan without importing plan.py back.
__all__ = [
    "AZUREML",
    "AZUREML_MASTER_PORT",
    "TF_PORT",
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
    "plan",
    "tf_config",
]

# ---------------------------------------------------------------------------------------------
# Env vars


class _Env:
    """Ordered EnvVars; a later setter replaces an earlier one and notes what it replaced."""

    __slots__ = ("_vars",)

    def __init__(self, base: dict[str, EnvVar] | None = None) -> None:
        self._vars: dict[str, EnvVar] = dict(base) if base else {}

    def set(self, origin: Origin, **values: object) -> _Env:
        for name, value in values.items():
            old = self._vars.get(name)
            note = ""
            if old is not None and old.origin is not origin and old.value != str(value):
                note = f"replaces {old.origin.value}'s {old.value}"
            self._vars[name] = EnvVar(name, str(value), origin, note)
        return self

    def done(self) -> tuple[EnvVar, ...]:
        return tuple(self._vars.values())

    @property
    def vars(self) -> dict[str, EnvVar]:
        return self._vars


def _ompi(rank: int, local_rank: int, n: int, pcpi: int, one_host: bool) -> dict[str, object]:
    """What Open MPI sets for one rank. On one host (the local target, mapped by slot) every
    rank is local, so the local rank is the world rank."""
    return {
        "OMPI_COMM_WORLD_RANK": rank,
        "OMPI_COMM_WORLD_SIZE": n * pcpi,
        "OMPI_COMM_WORLD_LOCAL_RANK": rank if one_host else local_rank,
        "OMPI_COMM_WORLD_LOCAL_SIZE": n * pcpi if one_host else pcpi,
        # Despite the name, this is the rank among *all jobs'* processes on the node.
        "OMPI_COMM_WORLD_NODE_RANK": rank if one_host else local_rank,
    }


def _azureml_for_deepspeed(target: Target, n: int, addr: str) -> dict[str, object]:
    """The Azure ML variables DeepSpeed reads under the mpi distribution. Azure ML sets
    AZUREML_EXPERIMENT_ID on every job (the plan lists it where a framework reads it);
    AZ_BATCHAI_MPI_MASTER_NODE is where DeepSpeed looks for the master on one host."""
    values: dict[str, object] = {
        "AZUREML_EXPERIMENT_ID": "<experiment id>" if target.kind == "azureml" else "local"
    }
    if target.kind == "local" or n == 1:
        values["AZ_BATCHAI_MPI_MASTER_NODE"] = addr
    return values


def _torchrun_worker_env(
    env: _Env, origin: Origin, n: int, g: int, node: int, local: int, addr: str, port: int
) -> None:
    # torch.distributed.run (which `accelerate launch` uses too) sets these only when unset.
    defaults = {"TORCH_NCCL_ASYNC_ERROR_HANDLING": "1"}
    if g > 1:
        defaults["OMP_NUM_THREADS"] = "1"  # with a warning in the log, to avoid oversubscription
    env.set(origin, **{k: v for k, v in defaults.items() if k not in env.vars})
    env.set(
        origin,
        TORCHELASTIC_USE_AGENT_STORE="True",
        TORCHELASTIC_SIGNALS_TO_HANDLE="SIGTERM,SIGINT,SIGHUP,SIGQUIT",
        RANK=node * g + local,
        LOCAL_RANK=local,
        WORLD_SIZE=n * g,
        LOCAL_WORLD_SIZE=g,
        GROUP_RANK=node,
        GROUP_WORLD_SIZE=n,
        ROLE_RANK=node * g + local,
        ROLE_WORLD_SIZE=n * g,
        ROLE_NAME="default",
        MASTER_ADDR=addr,
        MASTER_PORT=port,
        TORCHELASTIC_RESTART_COUNT=0,
        TORCHELASTIC_MAX_RESTARTS=0,
        TORCHELASTIC_RUN_ID="none",
    )


# DeepSpeed 0.19's deepspeed.comm constants for Azure ML (DEFAULT_AML_MASTER_PORT, …).
DEEPSPEED_AML_ONE_HOST_PORT = "54965"
DEEPSPEED_AML_NCCL_SOCKET_IFNAME = "^docker0,lo"
_TORCH_DIST_VARS = ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "LOCAL_RANK")


def _deepspeed_reads_open_mpi(env: _Env) -> None:
    """What `deepspeed.init_distributed()` sets in a process that mpirun started.

    With none of torch's variables set and AZUREML_EXPERIMENT_ID present, DeepSpeed maps Open
    MPI's variables itself (`patch_aml_env_for_torch_nccl_backend`). Which address and port it
    picks depends on whether every rank is on one host (LOCAL_SIZE = SIZE): on one host
    AZ_BATCHAI_MPI_MASTER_NODE and its fixed port, across hosts AZ_BATCH_MASTER_NODE's address
    and 6105 (the port in AZ_BATCH_MASTER_NODE is ignored).
    """
    v = {name: var.value for name, var in env.vars.items()}
    if all(name in v for name in _TORCH_DIST_VARS) or "AZUREML_EXPERIMENT_ID" not in v:
        return
    if v["OMPI_COMM_WORLD_LOCAL_SIZE"] == v["OMPI_COMM_WORLD_SIZE"]:
        addr, port = v["AZ_BATCHAI_MPI_MASTER_NODE"], DEEPSPEED_AML_ONE_HOST_PORT
    else:
        addr, port = v["AZ_BATCH_MASTER_NODE"].split(":")[0], v.get("MASTER_PORT", "6105")
    env.set(
        Origin.DEEPSPEED,
        RANK=v["OMPI_COMM_WORLD_RANK"],
        WORLD_SIZE=v["OMPI_COMM_WORLD_SIZE"],
        MASTER_ADDR=addr,
        MASTER_PORT=port,
        NCCL_SOCKET_IFNAME=DEEPSPEED_AML_NCCL_SOCKET_IFNAME,
        LOCAL_RANK=v["OMPI_COMM_WORLD_LOCAL_RANK"],
    )


def _set_by_framework(
    env: _Env, spec: JobSpec, target: Target, vcpus: int | None, launcher: str | None
) -> None:
    """What the framework sets inside each training process, as a real run shows it (Lightning
    2.6, DeepSpeed 0.19, TensorFlow 2.21, accelerate 1.15; checked by the rehearsal tests)."""
    if launcher == "accelerate":  # `accelerate launch` passes these to every worker it starts
        env.set(
            Origin.ACCELERATE,
            ACCELERATE_MIXED_PRECISION="no",
            ACCELERATE_DYNAMO_BACKEND="NO",
            ACCELERATE_DYNAMO_MODE="default",
            ACCELERATE_DYNAMO_USE_FULLGRAPH="False",
            ACCELERATE_DYNAMO_USE_DYNAMIC="False",
            ACCELERATE_DYNAMO_USE_REGIONAL_COMPILATION="False",
            PYTORCH_NVML_BASED_CUDA_CHECK="1",
        )
    if spec.framework == "lightning" and launcher is None:
        # On import; then, at fit(), OMP_NUM_THREADS = the node's cores ÷ its processes (unless
        # set), so the ranks of one node do not oversubscribe its CPUs.
        env.set(Origin.LIGHTNING, PYTORCH_NVML_BASED_CUDA_CHECK="1")
        if "OMP_NUM_THREADS" not in env.vars:
            cpus = target.cpus if target.kind == "local" else vcpus
            g = spec.gpus_per_node
            env.set(
                Origin.LIGHTNING,
                OMP_NUM_THREADS=max(1, cpus // g) if cpus else f"<vCPUs ÷ {g}>",
            )
    elif spec.framework == "deepspeed":
        env.set(Origin.DEEPSPEED, PYTORCH_NVML_BASED_CUDA_CHECK="1")  # on import
        if uses_mpi(spec) and launcher is None:  # one process per GPU under mpirun
            _deepspeed_reads_open_mpi(env)
    elif spec.framework == "huggingface" and launcher != "accelerate":
        # Not from a launcher here: transformers' Trainer imports DeepSpeed where it is
        # installed (the ACPT images have it), and DeepSpeed sets this on import.
        env.vars["PYTORCH_NVML_BASED_CUDA_CHECK"] = EnvVar(
            "PYTORCH_NVML_BASED_CUDA_CHECK",
            "1",
            Origin.DEEPSPEED,
            "where DeepSpeed is installed: the Trainer imports it",
        )
    elif spec.framework == "tensorflow":
        env.set(  # on import
            Origin.TENSORFLOW,
            ENABLE_RUNTIME_UPTIME_TELEMETRY="1",
            HDF5_PLUGIN_PATH="disable",
            TF2_BEHAVIOR="1",
            TPU_ML_PLATFORM="Tensorflow",
            TPU_ML_PLATFORM_VERSION="<TensorFlow's version>",
        )


# ---------------------------------------------------------------------------------------------
# The plan


def plan(spec: JobSpec, target: Target = AZUREML) -> LaunchPlan:
    """Every node, rank, command and env var of `spec` when it runs on `target`."""
    if spec.launch == "single":
        return _plan_single(spec, target)
    if spec.framework == "tensorflow":
        return _plan_tensorflow(spec, target)

    sku = find_sku(spec.sku)
    n, g = spec.nodes, spec.gpus_per_node
    mpi = uses_mpi(spec)
    launcher = launcher_for(spec)
    spawns = launcher in ("torchrun", "accelerate")
    pcpi = g if spec.launch == "per_process" else 1
    workers = g if (spec.launch == "per_process" or spawns) else 1
    world = n * workers
    addr, port = target.master_addr, target.master_port
    local = target.kind == "local"
    command = build_command(spec)
    user = _Env().set(Origin.USER, **spec.env)
    # DeepSpeed, one process per GPU under mpirun: it finds its ranks through Azure ML's marker.
    deepspeed_discovers = mpi and spec.framework == "deepspeed" and spec.launch == "per_process"

    nodes: list[NodePlan] = []
    node_envs: list[_Env] = []
    for node in range(n):
        node_env = _Env(user.vars)
        if mpi:
            node_env.set(Origin.AZUREML, AZ_BATCH_MASTER_NODE=f"{addr}:{port}")
            if deepspeed_discovers:
                node_env.set(Origin.AZUREML, **_azureml_for_deepspeed(target, n, addr))
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
                node_env.set(Origin.OPENMPI, **_ompi(node, 0, n, 1, local))
            else:
                node_env.set(Origin.AZUREML, RANK=node, LOCAL_RANK=0)
        node_envs.append(node_env)
        refs = Refs(str(node), addr, str(port), str(node), f"{addr}:{port}")
        nodes.append(
            NodePlan(node, "worker", node_env.done(), build_command(spec, refs), pcpi, workers)
        )

    def make_rank(rank: int) -> RankPlan:
        node, local_rank = divmod(rank, workers)
        env = _Env(node_envs[node].vars)
        started = local_rank if pcpi > 1 else 0  # the process Azure ML / mpirun started
        started_rank = node * pcpi + started
        if mpi:
            env.set(Origin.OPENMPI, **_ompi(started_rank, started, n, pcpi, local))
            if spec.launch == "per_node":
                env.set(Origin.COMMAND, NODE_RANK=node, MASTER_ADDR=addr, MASTER_PORT=port)
        else:
            env.set(Origin.AZUREML, RANK=started_rank, LOCAL_RANK=started)
        if spawns:
            origin = Origin.ACCELERATE if launcher == "accelerate" else Origin.TORCHRUN
            _torchrun_worker_env(env, origin, n, workers, node, local_rank, addr, port)
        _set_by_framework(env, spec, target, sku.vcpus if sku else None, launcher)
        return RankPlan(rank, node, local_rank, env.done(), f"user_logs/std_log_process_{rank}.txt")

    warnings = plan_warnings(spec, sku, target, n)
    explanations = explain(spec, sku, target, launcher, pcpi, workers, world)
    ds_config = None
    if spec.framework == "deepspeed" and spec.command is None and not spec.deepspeed_config:
        ds_config = deepspeed.build_config(spec, sku, world)
        explanations += deepspeed.explain(spec, sku, world)
    if deepspeed_discovers:
        one_host = local or n == 1
        explanations.append(
            "Under mpirun no process has RANK, so `deepspeed.init_distributed()` finds "
            "AZUREML_EXPERIMENT_ID (Azure ML sets it on every job) and sets RANK, WORLD_SIZE and "
            "LOCAL_RANK from Open MPI's, NCCL_SOCKET_IFNAME to ^docker0,lo, and MASTER_ADDR:"
            "MASTER_PORT to "
            + (
                f"AZ_BATCHAI_MPI_MASTER_NODE:{DEEPSPEED_AML_ONE_HOST_PORT}, as every rank is on "
                + ("this one host." if local else "one node.")
                if one_host
                else "AZ_BATCH_MASTER_NODE's address and 6105 (not its port)."
            )
            + " It reads NCCL_SOCKET_IFNAME first for a log line, a KeyError where the image "
            "leaves it unset, unless `verbose=False` (the example passes it)."
        )
    if mpi and local and n > 1:
        warnings.append(
            f"On this machine all {n} simulated nodes are one host, so Open MPI reports "
            f"OMPI_COMM_WORLD_LOCAL_RANK 0..{n * pcpi - 1} and LOCAL_SIZE {n * pcpi}"
            + (" (DeepSpeed copies the first into LOCAL_RANK)" if deepspeed_discovers else "")
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
        launcher=launcher,
        world_size=world,
        nodes=tuple(nodes),
        ranks=Ranks(world, make_rank),
        warnings=tuple(warnings),
        explanations=tuple(explanations),
        env_vars=dict(spec.env),
        deepspeed_config=ds_config,
    )


def tf_config(cluster: dict[str, list[str]], role: str, index: int) -> str:
    """TF_CONFIG as Azure ML sets it for one task."""
    return json.dumps(
        {"cluster": cluster, "task": {"type": role, "index": index}, "environment": "cloud"},
        separators=(",", ":"),
    )


def _plan_tensorflow(spec: JobSpec, target: Target) -> LaunchPlan:
    sku = find_sku(spec.sku)
    w, p = spec.nodes, spec.parameter_servers
    roles = [("worker", i) for i in range(w)] + [("ps", i) for i in range(p)]
    hosts = [f"{target.host(node)}:{target.task_port(node)}" for node in range(w + p)]
    cluster: dict[str, list[str]] = {"worker": hosts[:w]}
    if p:
        cluster["ps"] = hosts[w:]
    command = build_command(spec)
    user = _Env().set(Origin.USER, **spec.env)
    nodes, ranks = [], []
    for node, (role, index) in enumerate(roles):
        env = _Env(user.vars).set(Origin.AZUREML, TF_CONFIG=tf_config(cluster, role, index))
        nodes.append(NodePlan(node, role, env.done(), command, 1, 1))
        _set_by_framework(env, spec, target, None, None)
        if p and (role, index) == ("worker", 0):
            # ParameterServerStrategy sets these in the coordinator's process; Azure ML's
            # TF_CONFIG has no chief, so the example (and the guide) make worker 0 coordinate.
            env.set(
                Origin.TENSORFLOW,
                TF_ENABLE_EAGER_CLIENT_STREAMING_ENQUEUE="False",
                TF_PS_DISABLE_ASYNC_EXECUTOR_GLOBALLY="True",
            )
        ranks.append(
            RankPlan(
                node,
                node,
                0,
                env.done(),
                f"user_logs/std_log_node_{index:02d}_{role}.txt",
                role,
                index,
            )
        )
    warnings = plan_warnings(spec, sku, target, w + p)
    explanations = [
        (
            f"instance_count = {w} worker{'s' if w != 1 else ''}"
            f" + {p} parameter server{'s' if p != 1 else ''} = {w + p} nodes"
            if p
            else f"instance_count = {w} node{'s' if w != 1 else ''}, one per worker"
        )
        + "; each node runs one TensorFlow task that drives all its GPUs.",
        "Azure ML sets TF_CONFIG on every node: the whole cluster, and which task this node is. "
        "tf.distribute reads it; your script does not pass addresses.",
    ]
    if p:
        explanations.append(
            "Parameter-server training: workers compute gradients, parameter servers hold the "
            "variables. MultiWorkerMirroredStrategy (0 parameter servers) suits most GPU jobs."
        )
        warnings.append(
            "Azure ML's TF_CONFIG has no chief/coordinator task; TF2 ParameterServerStrategy "
            "needs one, so your script must create the coordinator itself (TF1 estimators do not)."
        )
    else:
        explanations.append(
            f"MultiWorkerMirroredStrategy: worker_count = nodes = {w}; every worker keeps a "
            "copy of the model and gradients are all-reduced."
        )
    return LaunchPlan(
        spec=spec,
        target=target,
        sku=sku,
        instance_count=w + p,
        distribution=Distribution("tensorflow", worker_count=w, parameter_server_count=p),
        command=command,
        environment=spec.environment or default_environment(spec.framework),
        launcher=None,
        world_size=w,
        nodes=tuple(nodes),
        ranks=Ranks(len(ranks), ranks.__getitem__),
        warnings=tuple(warnings),
        explanations=tuple(explanations),
        env_vars=dict(spec.env),
    )


MODELED_DISTRIBUTIONS = ("pytorch", "mpi", "tensorflow")


def _plan_single(spec: JobSpec, target: Target) -> LaunchPlan:
    """No distribution: Azure ML runs the command once on each node and sets no rank variables.

    A distribution type the wizard does not model (ray, …) is planned the same way and written
    back as it was: dtrain-tui does not claim to know what its processes see.
    """
    sku = find_sku(spec.sku)
    n = spec.nodes
    command = build_command(spec)
    env = _Env().set(Origin.USER, **spec.env).done()
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
        explanations=tuple(explain_single(spec, distribution.as_written)),
        env_vars=dict(spec.env),
    )
