"""Horovod: ring all-reduce over MPI. Azure ML's mpi distribution runs mpirun, which starts one
rank per GPU; each learns its place from Open MPI's variables through `hvd.init()`."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from tui.frameworks.base import Framework, Glossary, Package, signature
from tui.frameworks.pytorch_script import launch_rules
from tui.frameworks.pytorch_writes import write_rules
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.values import disabled

if TYPE_CHECKING:
    from tui.core.spec import JobSpec


def hvd_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`hvd.init()`, `hvd.local_rank()` to pin each rank's GPU, the initial state broadcast
    from rank 0, and the optimizer wrapped so gradients are averaged."""
    inits = [
        call
        for name, call in src.calls
        if name.startswith(("horovod", "hvd")) and name.endswith(".init")
    ]
    lazily = any(s.startswith("horovod.") for s in src.strings)  # LazyImport("horovod.torch")
    horovod = src.imports_any("horovod") or lazily
    if not horovod and src.find("init_process_group"):
        # torch.distributed over the ranks mpirun starts (Open MPI's variables read by hand, or
        # mpi4py): no Horovod to set up; what clashes with the launch is torch's to say
        yield from launch_rules(src, plan)
        return
    if not inits or not horovod:
        yield src.finding(
            None,
            f"hvd.init() is never called: the {plan.world} ranks mpirun starts never join",
            "import horovod.torch as hvd; hvd.init()",
            "horovod_no_init",
        )
        return
    if off := list(disabled(src, plan, inits)):
        yield from off  # the rest of Horovod's setup sits behind the same switch
        return
    if not src.find("local_rank") and src.has("cuda", "GPU", "gpu"):
        yield src.finding(
            None,
            f"hvd.local_rank() is never used, so the {plan.gpus_per_node} ranks of a node all "
            "use GPU 0",
            "torch.cuda.set_device(hvd.local_rank()) (TensorFlow: "
            "tf.config.set_visible_devices(gpus[hvd.local_rank()], 'GPU'))",
            "horovod_no_local_rank_pin",
        )
    # a script that trains nothing (no optimizer, no backward pass, no fit) has no weights to
    # broadcast nor gradients to average: no finding it cannot prove
    delegated = _through_another_library(src) or not src.has(*_TRAINS)
    broadcast = (
        src.has(*_BROADCASTS)
        or _seeded(src)
        or _by_hand(src, "broadcast", ("parameters", "state_dict"))
    )
    if not broadcast and not delegated:
        yield src.finding(
            None,
            f"the initial weights are never broadcast from rank 0: the {plan.world} ranks "
            "start from different random weights",
            "hvd.broadcast_parameters(model.state_dict(), root_rank=0) (Keras: "
            "hvd.callbacks.BroadcastGlobalVariablesCallback(0))",
            "horovod_no_broadcast",
        )
    averaged = (
        "DistributedOptimizer",
        "DistributedGradientTape",
        "DistributedTrainer",
        "allreduce",
    )
    if not src.has(*averaged) and not delegated and not _by_hand(src, "allreduce", ("grad",)):
        yield src.finding(
            None,
            "the optimizer is not wrapped in hvd.DistributedOptimizer: gradients are never "
            f"averaged across the {plan.world} ranks",
            "optimizer = hvd.DistributedOptimizer(optimizer, ...)",
            "horovod_no_distributed_optimizer",
        )
    yield from write_rules(src, plan)


_TRAINS = ("optimizer", "Optimizer", "backward", "fit", "minimize", "apply_gradients", "step")
"""Words of code that trains: an optimizer, a backward pass, Keras' fit."""


def _through_another_library(src: ScriptFacts) -> bool:
    """Another library's Horovod layers or callbacks (a name with `Hvd` in it, called from
    outside horovod): that library may broadcast and average for the script, which its source
    here does not show, so neither is said missing."""
    return any(
        "Hvd" in name.split(".")[-1] and not name.startswith(("hvd.", "horovod."))
        for name, _ in src.calls
    )


def _by_hand(src: ScriptFacts, collective: str, words: tuple[str, ...]) -> bool:
    """Horovod's own collective, run by a function of the code that is called with the model's
    weights or its gradients (`broadcast_tensors([p.data for p in model.parameters()], 0)`,
    whose body calls `hvd.broadcast_`; `all_reduce_and_rescale_tensors(grads, 1)`, which
    calls `hvd.allreduce_`): broadcast or averaged by hand."""
    outer = set()
    for name, call in src.calls:
        if name.startswith("horovod") and (
            name.rpartition(".")[2].rstrip("_").removesuffix("_async") == collective
        ):
            fn, current = None, src.parents.get(call)
            while current is not None:  # the outermost function around it
                fn = current if isinstance(current, ast.FunctionDef) else fn
                current = src.parents.get(current)
            if fn is None:
                return True  # at the top of a module
            outer.add(fn)
    return any(
        any(w in ast.unparse(arg) for arg in call.args for w in words)
        for fn in outer
        for call in src.callers(fn)
    )


def _seeded(src: ScriptFacts) -> bool:
    """The same fixed seed on every rank: identical initial weights, no broadcast needed."""
    return any(
        call.args and isinstance(call.args[0], ast.Constant)
        for call in src.find("manual_seed", "set_seed", "random.set_seed")
    )


_BROADCASTS = (
    "broadcast_parameters",
    "broadcast_variables",
    "broadcast_global_variables",
    "BroadcastGlobalVariablesCallback",
    "BroadcastGlobalVariablesHook",
    "broadcast_optimizer_state",
    "broadcast_object",
    "TorchState",  # elastic: the state syncs (broadcasts) from rank 0 on every reset
    "TensorFlowState",
    "TensorFlowKerasState",
    "KerasState",
)


class Horovod(Framework):
    """Horovod over Open MPI."""

    name = "horovod"
    title = "Horovod (MPI)"
    tagline = "hvd.init() over MPI"
    not_supported: ClassVar[dict[str, str]] = {
        "per_node": (
            "Horovod needs one MPI rank per GPU, and Azure ML's mpirun is the launcher; "
            "one rank per node would leave all but one GPU idle; choose per-process launch"
        )
    }
    distributions: ClassVar[dict[str, str]] = {"mpi": "MpiDistribution"}
    packages = (
        # No pip line installs a working Horovod beside torch 2.1 or later, so no extra of its
        # own: the pre-flight's fix is this text as it is (README, "Every framework,
        # rehearsed"); `torch` is the extra that gives what it builds against.
        Package(
            "horovod",
            "Horovod built with its PyTorch ops, which no pip line gives beside torch 2.1 or "
            "later: its last release, 0.28.1, compiles them as C++14 and builds only against "
            "torch < 2.1 (`HOROVOD_WITH_PYTORCH=1 HOROVOD_WITH_MPI=1 pip install --no-cache-dir "
            "horovod==0.28.1` beside torch 2.0, with cmake, g++ and an MPI's mpicc); newer "
            "torch needs Horovod built from its main branch (C++17, unreleased); on Azure ML, "
            "use an environment with Horovod built in",
            "torch",
        ),
    )
    assumed_modules = ("horovod",)
    example = "horovod"
    # Horovod's last release does not build against torch 2.13 (README, "Every framework,
    # rehearsed"), so here its rehearsal is the labelled MPI env check, as the shipped preset's;
    # train_horovod.py is the example for the cluster.
    sample_script = "mpi_env_check.py"
    init_call = "`hvd.init()`"
    guess_order = 30
    mechanisms = ("Horovod", "hvd.")
    log_signatures = (
        signature("mpi_error", "root", r"horovodrun: error|HorovodInternalError", "orovod"),
        signature("mpi_error", "echo", r"Horovod has been shut down", "Horovod"),
    )
    script_rules = (hvd_rules,)
    glossary = (
        Glossary(
            "MPI / mpirun",
            "how Horovod (and DeepSpeed over MPI) start ranks; Open MPI sets "
            "`OMPI_COMM_WORLD_RANK` and friends.",
        ),
    )

    def uses_mpi(self, spec: JobSpec) -> bool:
        return True

    def recognises(self, distribution: str, command: str) -> bool:
        return distribution == "mpi"

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        return {"script": self.sample_script}

    def why(self, step: str, spec: JobSpec) -> str:
        if step == "code":
            return (
                "**Shared memory**: Open MPI moves data between the ranks of one node through "
                "/dev/shm, and so do the worker processes of a data loader; Azure ML's 2 GB "
                "default makes either fail (*Bus error*), so 16g is the default here."
                "\n\n"
                "**NCCL_DEBUG=INFO**: Horovod's GPU all-reduce runs on NCCL, which then prints "
                "`NET/IB` in the log when InfiniBand is really used."
            )
        if step == "framework":
            return (
                "Horovod averages gradients with ring all-reduce over MPI. Azure ML starts "
                "mpirun; each rank learns its place from OMPI_COMM_WORLD_RANK."
            )
        return ""
