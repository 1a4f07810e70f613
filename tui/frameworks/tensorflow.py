"""TensorFlow: one task per node that drives all of that node's GPUs; Azure ML writes TF_CONFIG
(the whole cluster, and which task this node is) on every node and tf.distribute reads it.
Workers all-reduce (MultiWorkerMirroredStrategy), or, with parameter servers, hold variables on
ps tasks of their own (ParameterServerStrategy). Tasks have roles and indices, not ranks."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from tui.core.catalog import default_environment
from tui.core.plan_types import (
    Distribution,
    EnvBuilder,
    LaunchPlan,
    NodePlan,
    Origin,
    RankPlan,
    Ranks,
)
from tui.frameworks.base import Framework, Glossary, Launcher, Package, signature
from tui.frameworks.tensorflow_script import cluster_rules, strategy_rules

if TYPE_CHECKING:
    from tui.core.catalog import Sku
    from tui.core.plan_types import Target
    from tui.core.spec import JobSpec

TENSORFLOW = Origin("TensorFlow", "framework")


def tf_config(cluster: dict[str, list[str]], role: str, index: int) -> str:
    """TF_CONFIG as Azure ML sets it for one task."""
    return json.dumps(
        {"cluster": cluster, "task": {"type": role, "index": index}, "environment": "cloud"},
        separators=(",", ":"),
    )


def _tasks(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


class TensorFlow(Framework):
    """tf.distribute with MultiWorkerMirroredStrategy or ParameterServerStrategy."""

    name = "tensorflow"
    title = "TensorFlow (MultiWorkerMirrored / parameter server)"
    tagline = "TF_CONFIG"
    default_launch = "per_node"
    not_supported: ClassVar[dict[str, str]] = {
        "per_process": (
            "TensorFlow runs one task per node that drives all of that node's GPUs "
            "(TF_CONFIG names nodes, not GPUs); choose per-node launch"
        )
    }
    distributions: ClassVar[dict[str, str]] = {"tensorflow": "TensorFlowDistribution"}
    platform_vars = ("TF_CONFIG",)
    options: ClassVar[dict[str, Any]] = {"parameter_servers": 0}
    field_labels: ClassVar[dict[str, str]] = {"parameter_servers": "Parameter servers"}
    option_rule = "only TensorFlow uses parameter servers; set it to 0 or choose tensorflow"
    origins = (TENSORFLOW,)
    packages = (Package("tensorflow", "tensorflow", "tensorflow"),)
    assumed_modules = ("tensorflow",)
    example = "tensorflow-mwms"
    sample_script = "train_tf_mwms.py"
    ps_sample_script = "train_tf_ps.py"
    init_call = "`MultiWorkerMirroredStrategy()`"
    guess_order = 10
    mechanisms = ("TF_CONFIG", "tf.distribute", "MirroredStrategy", "ParameterServer", "tf.data")
    one_task_per_node = True
    shown_json_var = "TF_CONFIG"
    log_signatures = (
        # The gRPC cluster: a task that cannot reach, or waits forever for, another task.
        signature("tf_cluster_error", "root", r"TF_CONFIG", "TF_CONFIG"),
        signature("tf_cluster_error", "root", r"Task .* not found in cluster", "cluster"),
        signature("tf_cluster_error", "root", r"not (?:defined )?in (?:the )?cluster", "cluster"),
        signature(
            "tf_cluster_error", "root", r"(?i:unable to find (?:the )?(?:task|worker))", "nable"
        ),
        signature(
            "tf_cluster_error", "root", r"InvalidArgumentError: .*(?:cluster|task)", "Invalid"
        ),
        signature("tf_cluster_error", "echo", r"CreateSession still waiting for", "CreateSession"),
        signature("tf_cluster_error", "echo", r"Collective ops is aborted by", "Collective ops"),
        signature("tf_cluster_error", "echo", r"CancelledError: .*[Cc]ollective", "CancelledError"),
        signature("tf_cluster_error", "echo", r"UnavailableError|DeadlineExceededError", "Error"),
        signature(
            "tf_cluster_error", "echo", r"failed to connect to all addresses", "all addresses"
        ),
        signature("tf_cluster_error", "echo", r"Socket closed", "Socket closed"),
        signature("tf_cluster_error", "echo", r"Failed to connect to remote host", "remote host"),
        signature(
            "tf_cluster_error", "echo", r"Connection reset by peer.*grpc|grpc.*reset", "grpc"
        ),
        signature("tf_cluster_error", "echo", r"coordination service", "coordination"),
    )
    script_rules = (strategy_rules, cluster_rules)
    glossary = (
        Glossary(
            "TF_CONFIG",
            "the JSON Azure ML writes for TensorFlow: the cluster and this task's role.",
        ),
    )

    def option_problem(self, field: str) -> str:
        return self.option_rule

    def submit_problems(self, spec: JobSpec) -> list[str]:
        count = spec.as_written.get("instance_count")
        tasks = spec.nodes + spec.parameter_servers
        if spec.as_written.get("shape") != spec.shape or count is None or count == tasks:
            return []
        return [
            f"resources.instance_count: is {count} but worker_count {spec.nodes} + "
            f"parameter_server_count {spec.parameter_servers} = {tasks}; Azure ML needs one node "
            f"per task: write instance_count: {tasks} in the job file"
        ]

    def tasks_with_ports(self, spec: JobSpec) -> int:
        return spec.nodes + spec.parameter_servers

    def launcher(self, spec: JobSpec) -> Launcher | None:
        return None  # one task per node is TensorFlow's own way, not a launcher's

    def process_env(
        self,
        env: EnvBuilder,
        spec: JobSpec,
        target: Target,
        vcpus: int | None,
        launcher: Launcher | None,
    ) -> None:
        env.set(  # on import
            TENSORFLOW,
            ENABLE_RUNTIME_UPTIME_TELEMETRY="1",
            HDF5_PLUGIN_PATH="disable",
            TF2_BEHAVIOR="1",
            TPU_ML_PLATFORM="Tensorflow",
            TPU_ML_PLATFORM_VERSION="<TensorFlow's version>",
        )

    def plan(
        self, spec: JobSpec, target: Target, sku: Sku | None, command: str, warnings: list[str]
    ) -> LaunchPlan | None:
        w, p = spec.nodes, spec.parameter_servers
        roles = [("worker", i) for i in range(w)] + [("ps", i) for i in range(p)]
        hosts = [f"{target.host(node)}:{target.task_port(node)}" for node in range(w + p)]
        cluster: dict[str, list[str]] = {"worker": hosts[:w]}
        if p:
            cluster["ps"] = hosts[w:]
        user = EnvBuilder().set(Origin.USER, **spec.env)
        nodes, ranks = [], []
        for node, (role, index) in enumerate(roles):
            env = EnvBuilder(user.vars).set(
                Origin.AZUREML, TF_CONFIG=tf_config(cluster, role, index)
            )
            nodes.append(NodePlan(node, role, env.done(), command, 1, 1))
            self.process_env(env, spec, target, None, None)
            if p and (role, index) == ("worker", 0):
                # ParameterServerStrategy sets these in the coordinator's process; Azure ML's
                # TF_CONFIG has no chief, so the example (and the guide) make worker 0 coordinate.
                env.set(
                    TENSORFLOW,
                    TF_ENABLE_EAGER_CLIENT_STREAMING_ENQUEUE="False",
                    TF_PS_DISABLE_ASYNC_EXECUTOR_GLOBALLY="True",
                )
            log = f"user_logs/std_log_node_{index:02d}_{role}.txt"
            ranks.append(RankPlan(node, node, 0, env.done(), log, role, index))
        explanations = [
            (
                f"instance_count = {_tasks(w, 'worker')} + {_tasks(p, 'parameter server')} = "
                f"{w + p} nodes"
                if p
                else f"instance_count = {_tasks(w, 'node')}, one per worker"
            )
            + "; each node runs one TensorFlow task that drives all its GPUs.",
            "Azure ML sets TF_CONFIG on every node: the whole cluster, and which task this node "
            "is. tf.distribute reads it; your script does not pass addresses.",
        ]
        if p:
            explanations.append(
                "Parameter-server training: workers compute gradients, parameter servers hold "
                "the variables. MultiWorkerMirroredStrategy (0 parameter servers) suits most GPU "
                "jobs."
            )
            warnings.append(
                "Azure ML's TF_CONFIG has no chief/coordinator task; TF2 ParameterServerStrategy "
                "needs one, so your script must create the coordinator itself (TF1 estimators do "
                "not)."
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
            tasks=True,
        )

    def topology_caption(self, plan: LaunchPlan) -> str:
        w, ps = plan.spec.nodes, plan.spec.parameter_servers
        return (
            f"one TensorFlow task each: {_tasks(w, 'worker')}"
            + (f" + {ps} ps" if ps else "")
            + " · TF_CONFIG gives every task the whole cluster"
        )

    def shape(self, spec: JobSpec, tasks: int) -> str:
        """The plan's one-line shape in TensorFlow's words: tasks, workers, ps; no WORLD_SIZE."""
        return (
            _tasks(spec.nodes, "worker")
            + (f" + {spec.parameter_servers} ps" if spec.parameter_servers else "")
            + f" = {_tasks(tasks, 'task')}, one per node"
        )

    def recognises(self, distribution: str, command: str) -> bool:
        return distribution == "tensorflow"

    def imports_distribution(self, distribution: str) -> bool:
        return distribution == "tensorflow"

    def imported_distribution(
        self, dist: dict[str, Any], instances: int, number: Callable[[Any, str], int]
    ) -> dict[str, Any]:
        ps = number(dist.get("parameter_server_count") or 0, "distribution.parameter_server_count")
        workers = number(dist.get("worker_count") or instances - ps, "distribution.worker_count")
        # worker_count + parameter_server_count may differ from instance_count: azure-ai-ml
        # accepts that, the plan warns and only `submit` refuses it (submit_problems).
        return {"launch": "per_node", "nodes": workers, "parameter_servers": ps, "gpus_per_node": 1}

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        return {"script": self.ps_sample_script if spec.parameter_servers else self.sample_script}

    def why(self, step: str, spec: JobSpec) -> str:
        if step == "framework":
            return (
                "TensorFlow reads the cluster from TF_CONFIG, which Azure ML writes on every "
                "node. One task runs per node and drives all of that node's GPUs."
            )
        if step == "launch":
            return (
                "TensorFlow runs **one task per node**; Azure ML writes TF_CONFIG on each "
                "node. That is why per-process does not apply."
            )
        if step == "code":
            return (
                "**Shared memory**: tf.data reads in the training process itself, so Azure ML's "
                "2 GB /dev/shm is rarely the limit; 16g costs nothing and covers "
                "multiprocessing input pipelines.\n\n"
                + (
                    "**Parameter servers** talk gRPC to the workers on the TF_CONFIG ports, so "
                    "a slow step shows in the tasks' logs, not in NCCL's."
                    if spec.parameter_servers
                    else "**NCCL_DEBUG=INFO**: on GPUs MultiWorkerMirroredStrategy all-reduces "
                    "with NCCL, which then prints `NET/IB` in the log when InfiniBand is really "
                    "used."
                )
            )
        if step == "resources.network" and spec.parameter_servers:
            return (
                "**The network** carries every step's gradients from the workers to the "
                "parameter servers and the variables back, over gRPC (TCP): InfiniBand helps "
                "only as IP over InfiniBand, so place parameter servers on sizes with a fast "
                "Ethernet too. Sizes with an `r` in the name have InfiniBand."
            )
        if step == "resources":
            n, ps = spec.nodes, spec.parameter_servers
            return (
                f"**{_tasks(n, 'worker')} + {ps} ps = {n + ps} nodes.** TensorFlow "
                "runs one task per node: each worker task drives all its node's GPUs, and each "
                "parameter server (ps) task is a node of its own that holds variables"
                + (
                    ", so it adds a node to the job."
                    if ps
                    else "; with 0 ps the workers all-reduce (MultiWorkerMirroredStrategy)."
                )
                + "\n\n"
            )
        return ""
