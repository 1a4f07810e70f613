"""PyTorch Lightning: the Trainer finds the processes Azure ML started through RANK, LOCAL_RANK
and WORLD_SIZE; it needs `num_nodes` and `devices` to match the plan, which the command passes
(`--trainer.num_nodes`, `--trainer.devices`, LightningCLI's spelling)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from tui.core.plan_types import EnvBuilder, Origin
from tui.frameworks.base import Launcher, Package
from tui.frameworks.pytorch import PyTorch
from tui.frameworks.pytorch_writes import write_rules
from tui.scripts.args import Arg, Parser
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.syntax import constant, dotted, keyword

if TYPE_CHECKING:
    from tui.core.catalog import Sku
    from tui.core.plan_types import Target
    from tui.core.spec import JobSpec

LIGHTNING = Origin("Lightning", "framework")

# Started per node, Lightning is "the launcher": one process, expected to start the rest.
LIGHTNING_LAUNCHER = Launcher("lightning", spawns=False, modules=("torch",))


def trainer_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`Trainer(num_nodes=…, devices=…)` agreeing with the plan (the guide's multi-node pitfall:
    a Trainer left at one node trains each node alone), and a strategy that does not start
    processes of its own under a plan that already does."""
    trainers = [
        c for c in src.find("Trainer", "Fabric") if dotted(c.func).split(".")[-1] in _MAKERS
    ]
    yield from _rank_zero_download(src, plan)
    yield from _best_checkpoint(src, plan)
    if src.find("LightningCLI"):
        return  # the command line's values reach the Trainer (or argv_rejected says why not)
    if built := src.find("from_argparse_args"):
        yield from _set_aside(src, plan, built[0])
        return  # the parsed values reach the Trainer (or argv_rejected says why not)
    for call in trainers:
        yield from _trainer_shape(src, plan, call)
        strategy = _value(plan, keyword(call, "strategy") or keyword(call, "accelerator"))
        if strategy in _SPAWNING and plan.started_per_node > 1:
            yield src.finding(
                call,
                f"strategy={strategy!r} starts processes of its own, but the plan already "
                f"starts {plan.started_per_node} per node",
                'strategy="ddp" (Lightning then finds the processes Azure ML started)',
                "lightning_spawn_strategy",
            )


_MAKERS = ("Trainer", "Fabric")


def _set_aside(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> Iterator[Finding]:
    """`Trainer.from_argparse_args(args)` after `parse_known_args()`: the plan's
    `--trainer.num_nodes` is no option the parser lists (its Trainer flags are `--num_nodes`),
    so it is set aside without a word and the Trainer stays on one node."""
    parser = plan.parser
    if parser is None or not parser.open or plan.nodes <= 1 or plan.off(call):
        return
    listed = {name for arg in parser.args for name in arg.names}
    passed = [w for w in plan.argv if w.startswith("--trainer.") and w.split("=")[0] not in listed]
    if not any(w.split("=")[0] == "--trainer.num_nodes" for w in passed):
        return
    yield src.finding(
        call,
        f"parse_known_args() sets aside the plan's {' '.join(passed)} (this parser's Trainer "
        f"flags are --num_nodes, --devices …), so {dotted(call.func)} keeps num_nodes 1: each "
        f"of the {plan.nodes} nodes trains alone",
        f"pass --num_nodes {plan.nodes} in the job's arguments, or read "
        "--trainer.num_nodes into the Trainer",
        "trainer_shape_mismatch",
    )


def _rank_zero_download(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`with rank_zero_first(local=False)` around data only global rank 0 downloads: the other
    nodes' ranks then read a node-local folder that is empty."""
    if plan.nodes <= 1:
        return
    for call in src.find("rank_zero_first"):
        if constant(keyword(call, "local", 0)) is not False:
            continue
        block = src.parents.get(src.parents.get(call))
        text = ast.dump(block) if isinstance(block, ast.With) else ""
        if "download" in text and "global_zero" in text:
            yield src.finding(
                call,
                "only global rank 0 downloads the data (rank_zero_first(local=False), "
                "download=is_global_zero) into its own node's folder: the ranks of the "
                f"other {plan.nodes - 1} node(s) read a folder that is not there",
                "rank_zero_first(local=True) with download=is_local_zero (or a shared path)",
                "node_local_file_from_rank0",
            )


def _best_checkpoint(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`trainer.test(ckpt_path="best")` on several nodes: the best checkpoint is where global
    rank 0 saved it, on node 0's own disk."""
    if plan.nodes <= 1:
        return
    reads = [
        call
        for _, call in src.calls
        if constant(keyword(call, "ckpt_path")) == "best" and not plan.off(call)
    ]
    for call in sorted(reads, key=lambda c: (src.file(c) != src.modules[0].file, c.lineno))[:1]:
        name = dotted(call.func)  # the first read: the fix covers the others
        yield src.finding(
            call,
            f'{name}(ckpt_path="best") loads the checkpoint global rank 0 saved on its own '
            f"node: the ranks of the other {plan.nodes - 1} node(s) do not have it",
            "save checkpoints to a shared path (an Azure ML output, ./outputs is per node), "
            "or test on one node",
            "node_local_file_from_rank0",
        )


_SPAWNING = ("ddp_spawn", "dp", "ddp_notebook", "ddp_fork")


def _trainer_shape(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> Iterator[Finding]:
    spec = plan.spec
    if any(k.arg is None for k in call.keywords):
        return  # Trainer(**kwargs): cannot be read
    if _value(plan, keyword(call, "strategy") or keyword(call, "accelerator")) == "horovod":
        return  # Horovod's ranks (one per GPU, mpirun's) make the world, not num_nodes
    for kw, want in (("num_nodes", spec.nodes), ("devices", spec.gpus_per_node)):
        node = keyword(call, kw)
        if kw == "devices" and node is None:
            node = keyword(call, "gpus")
        if node is None and kw == "num_nodes" and spec.nodes > 1:
            yield src.finding(
                call,
                f"{dotted(call.func).split('.')[-1]} without num_nodes trains on one node: with "
                f"{spec.nodes} nodes each trains alone (the guide's multi-node pitfall)",
                f"Trainer(num_nodes={spec.nodes}, ...), or from an argument",
                "trainer_shape_mismatch",
            )
            return
        value = _value(plan, node)
        if isinstance(value, int) and not isinstance(value, bool) and value not in (want, -1):
            yield src.finding(
                call,
                f"Trainer({kw}={value}) but the plan has {want}"
                + ("" if isinstance(node, ast.Constant) else " (the command does not set it)"),
                f"Trainer({kw}={want}), or read it from an argument the command passes",
                "trainer_shape_mismatch",
            )
            return


def _value(plan: CheckPlan, node: ast.AST | None) -> object:
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        return node.value
    return plan.flow.value_at(node).value if plan.flow else None


_TRAINER_FLAGS = (
    "accelerator", "strategy", "devices", "num_nodes", "precision", "logger", "callbacks",
    "fast_dev_run", "max_epochs", "min_epochs", "max_steps", "min_steps", "max_time",
    "limit_train_batches", "limit_val_batches", "limit_test_batches", "val_check_interval",
    "check_val_every_n_epoch", "num_sanity_val_steps", "log_every_n_steps",
    "enable_checkpointing", "enable_progress_bar", "enable_model_summary",
    "accumulate_grad_batches", "gradient_clip_val", "gradient_clip_algorithm", "deterministic",
    "benchmark", "default_root_dir", "gpus", "auto_select_gpus", "tpu_cores", "ipus",
    "num_processes", "sync_batchnorm", "resume_from_checkpoint", "auto_lr_find",
    "auto_scale_batch_size", "profiler", "detect_anomaly", "plugins", "weights_save_path",
    "replace_sampler_ddp", "amp_backend", "amp_level", "move_metrics_to_cpu",
    "reload_dataloaders_every_n_epochs", "track_grad_norm", "overfit_batches",
)  # fmt: skip
"""What `Trainer.add_argparse_args` adds (Lightning 1.x)."""


def _cli_names(src: ScriptFacts) -> set[str]:
    """LightningCLI, and the script's own classes built on it (class MyCLI(LightningCLI))."""
    own = {
        name
        for name, cls in src.classes.items()
        if any(dotted(b).split(".")[-1] in ("LightningCLI", "CLI") for b in cls.bases)
    }
    return {"LightningCLI", "CLI", *own}


def cli_parser(src: ScriptFacts) -> Parser | None:
    """LightningCLI (jsonargparse): `--trainer.*`, `--model.*`, `--data.*`, `--config`, and a
    sub-command (fit, validate, …) unless run=False."""
    names = _cli_names(src)
    clis = [c for _, c in src.calls if dotted(c.func).split(".")[-1] in names]
    if not clis or not src.imports_any("lightning", "pytorch_lightning"):
        return None
    parser = Parser("LightningCLI", clis[0], dashes=True)
    parser.prefixes = ("--trainer.", "--model.", "--data.", "--optimizer", "--lr_scheduler")
    parser.args += [
        Arg(("--config", "-c"), "config"),
        Arg(("--seed_everything",), "seed_everything"),
        Arg(("--print_config",), "print_config", takes="optional"),
    ]
    for name in ("trainer", "model", "data"):
        parser.args.append(Arg((f"--{name}",), name))
    if constant(keyword(clis[0], "run")) is not False:
        parser.open = True  # a sub-command's own options
        subcommand = Arg((), "subcommand", clis[0], choices=_SUBCOMMANDS, required=True)
        parser.args.append(subcommand)  # `fit` first: jsonargparse requires one
    return parser


_SUBCOMMANDS = ("fit", "validate", "test", "predict")


def argparse_extras(src: ScriptFacts, parser: Parser) -> None:
    """`Trainer.add_argparse_args(parser)` adds the Trainer's own flags (Lightning 1.x)."""
    if parser.style == "argparse" and src.find("add_argparse_args"):
        parser.args += [Arg((f"--{flag}",), flag) for flag in _TRAINER_FLAGS]


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
    script_rules = (trainer_rules, write_rules)
    takeover_rules = (trainer_rules, write_rules)
    script_parser_adders = ("add_argparse_args",)

    def script_takeover(self, src: ScriptFacts) -> str | None:
        own_clis = _cli_names(src) - {"LightningCLI", "CLI"}  # class MyCLI(LightningCLI)
        made = [
            name
            for name, _ in src.calls
            if name in own_clis
            or (
                name.startswith(("lightning.", "pytorch_lightning."))
                and name.split(".")[-1] in ("Trainer", "Fabric", "LightningCLI", "CLI")
            )
        ]  # a script's own `class Trainer:` (the DDP tutorial's) is not Lightning's
        if not made:
            return None
        return (
            "Lightning's Trainer (or Fabric) joins the processes from RANK, LOCAL_RANK and "
            "WORLD_SIZE itself: no process group or sampler to write; its num_nodes and "
            "devices must match the plan"
        )

    def script_parser(self, src: ScriptFacts) -> Parser | None:
        return cli_parser(src)

    def script_parser_extras(self, src: ScriptFacts, parser: Parser) -> None:
        argparse_extras(src, parser)

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
