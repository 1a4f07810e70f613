"""PyTorch Lightning: the Trainer finds the processes Azure ML started through RANK, LOCAL_RANK
and WORLD_SIZE; it needs `num_nodes` and `devices` to match the plan, which the command passes
(`--trainer.num_nodes`, `--trainer.devices`, LightningCLI's spelling)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from tui.core.plan_types import EnvBuilder, Origin
from tui.core.script_facts import CheckPlan, Finding, ScriptFacts, constant, keyword
from tui.frameworks.base import Launcher, Package
from tui.frameworks.pytorch import PyTorch

if TYPE_CHECKING:
    from tui.core.catalog import Sku
    from tui.core.plan_types import Target
    from tui.core.spec import JobSpec

LIGHTNING = Origin("Lightning", "framework")

# Started per node, Lightning is "the launcher": one process, expected to start the rest.
LIGHTNING_LAUNCHER = Launcher("lightning", spawns=False, modules=("torch",))


def trainer_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`Trainer(num_nodes=…, devices=…)` agreeing with the plan (the guide's multi-node pitfall:
    a Trainer left at one node trains each node alone)."""
    spec = plan.spec
    trainers = src.find("Trainer")
    from_args = src.find("from_argparse_args")
    if from_args and spec.command is None:
        yield Finding(
            from_args[0].lineno,
            "Trainer.from_argparse_args reads --num_nodes and --devices, but the command "
            f"passes --trainer.num_nodes {spec.nodes} --trainer.devices "
            f"{spec.gpus_per_node} (LightningCLI's names)",
            f"Full command: python {spec.script} --num_nodes {spec.nodes} --devices "
            f"{spec.gpus_per_node} (plus your arguments)",
            "argv_rejected",
        )
        return
    if not trainers:
        if src.find("LightningCLI"):
            return  # LightningCLI takes --trainer.num_nodes / --trainer.devices from the command
        yield Finding(
            None,
            "no Trainer(...) found: Lightning needs num_nodes and devices to span the nodes",
            f"Trainer(num_nodes={spec.nodes}, devices={spec.gpus_per_node}, strategy='ddp')",
            "trainer_shape_mismatch",
        )
        return
    for call in trainers:
        for kw, want in (("num_nodes", spec.nodes), ("devices", spec.gpus_per_node)):
            value = keyword(call, kw)
            if kw == "devices" and value is None:
                value = keyword(call, "gpus")
            if value is None and kw == "num_nodes" and spec.nodes > 1:
                yield Finding(
                    call.lineno,
                    f"Trainer without num_nodes trains on one node: with {spec.nodes} nodes "
                    "each trains alone (the guide's multi-node pitfall)",
                    f"Trainer(num_nodes={spec.nodes}, ...), or from an argument",
                    "trainer_shape_mismatch",
                )
            elif isinstance(constant(value), int) and constant(value) != want:
                yield Finding(
                    call.lineno,
                    f"Trainer({kw}={constant(value)}) but the plan has {want}",
                    f"Trainer({kw}={want}), or read it from an argument",
                    "trainer_shape_mismatch",
                )


class Lightning(PyTorch):
    """PyTorch Lightning's Trainer with strategy='ddp'."""

    name = "lightning"
    title = "PyTorch Lightning"
    tagline = "Trainer(strategy='ddp')"
    launchers = (LIGHTNING_LAUNCHER,)
    origins = (LIGHTNING,)
    packages = (
        Package("lightning", "lightning", "lightning"),
        Package("pytorch_lightning", "pytorch-lightning", "lightning"),
    )
    assumed_modules = ("torch", "lightning")
    example = "lightning"
    sample_script = "train_lightning.py"
    guess_order = 40
    mechanisms = ("Lightning", "--trainer.")
    init_call = "`Trainer(num_nodes=…, devices=…)`, which joins the process group"
    glossary = ()
    script_rules = (trainer_rules,)

    def launcher(self, spec: JobSpec) -> Launcher | None:
        return LIGHTNING_LAUNCHER if spec.launch == "per_node" else None

    def args(self, spec: JobSpec) -> list[str]:
        if spec.launch == "single":  # not distributed: no flags
            return []
        return [
            "--trainer.num_nodes",
            str(spec.nodes),
            "--trainer.devices",
            str(spec.gpus_per_node),
        ]

    def process_env(
        self,
        env: EnvBuilder,
        spec: JobSpec,
        target: Target,
        vcpus: int | None,
        launcher: Launcher | None,
    ) -> None:
        if launcher is not None:
            return
        # On import; then, at fit(), OMP_NUM_THREADS = the node's cores ÷ its processes (unless
        # set), so the ranks of one node do not oversubscribe its CPUs.
        env.set(LIGHTNING, PYTORCH_NVML_BASED_CUDA_CHECK="1")
        if "OMP_NUM_THREADS" not in env.vars:
            cpus = target.cpus if target.kind == "local" else vcpus
            g = spec.gpus_per_node
            env.set(LIGHTNING, OMP_NUM_THREADS=max(1, cpus // g) if cpus else f"<vCPUs ÷ {g}>")

    def explain(
        self, spec: JobSpec, sku: Sku | None, target: Target, launcher: Launcher | None
    ) -> list[str]:
        if spec.launch != "per_process":
            return []
        return [
            f"Lightning gets --trainer.num_nodes {spec.nodes} --trainer.devices "
            f"{spec.gpus_per_node} and finds the processes Azure ML started through "
            "RANK/LOCAL_RANK/WORLD_SIZE."
        ]

    def warnings(self, spec: JobSpec) -> list[str]:
        if spec.launch != "per_node":
            return []
        return [
            "launch: Lightning started per node sees LOCAL_RANK=0 from Azure ML, so it does not "
            f"start its own processes and uses 1 GPU per node instead of {spec.gpus_per_node}. "
            "Choose per-process launch (Azure ML starts one process per GPU; Lightning finds "
            "them)."
        ]

    def one_process_is_per_node(self, instances: int) -> bool:
        return instances > 1

    def recognises(self, distribution: str, command: str) -> bool:
        return "--trainer." in command or "lightning" in command.lower()

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        return {"script": self.sample_script}

    def why(self, step: str, spec: JobSpec) -> str:
        if step == "framework":
            return (
                "Lightning wraps DDP: the Trainer finds the processes Azure ML started through "
                "RANK, LOCAL_RANK and WORLD_SIZE, and only needs `num_nodes` and `devices` to "
                "match."
            )
        if step == "launch.per_node":
            return (
                "**Per-node**: Azure ML starts one process per node and Lightning is expected to "
                "start the rest — but it sees LOCAL_RANK=0 and trains on **one GPU per node**. "
                "Prefer per-process for Lightning.\n\n"
            )
        return super().why(step, spec)
