"""DeepSpeed: ZeRO sharding on top of a torch process group. It runs under Azure ML's pytorch
distribution (RANK and friends from Azure ML or torchrun) or its mpi one (mpirun starts the
ranks and `deepspeed.init_distributed()` maps Open MPI's variables itself). The command passes
`--deepspeed --deepspeed_config`; the config is the user's file or one built from the plan
(`deepspeed_config.py`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from tui.core.plan_types import ConfigFile, EnvBuilder, Origin
from tui.frameworks import deepspeed_config as ds
from tui.frameworks.base import Form, Launcher, Option, Package
from tui.frameworks.deepspeed_config import BATCH_FIX, config_file_rules, refused_batch
from tui.frameworks.pytorch import PyTorch
from tui.frameworks.pytorch_data import indexed_device_rules
from tui.frameworks.pytorch_sampler import sampler_rules
from tui.frameworks.pytorch_script import launch_rules
from tui.frameworks.pytorch_writes import write_rules
from tui.scripts.args import Arg, Parser
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.syntax import constant, dotted, keyword

if TYPE_CHECKING:
    from tui.core.catalog import Sku
    from tui.core.plan_types import Target
    from tui.core.spec import JobSpec

DEEPSPEED = Origin("DeepSpeed", "framework")

# DeepSpeed 0.19's deepspeed.comm constants for Azure ML (DEFAULT_AML_MASTER_PORT, …).
AML_ONE_HOST_PORT = "54965"
AML_NCCL_SOCKET_IFNAME = "^docker0,lo"
_TORCH_DIST_VARS = ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "LOCAL_RANK")
# `--deepspeed_config ds.json` (deepspeed.add_config_arguments) or `--deepspeed ds.json` (HF)


def _reads_open_mpi(env: EnvBuilder) -> None:
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
        addr, port = v["AZ_BATCHAI_MPI_MASTER_NODE"], AML_ONE_HOST_PORT
    else:
        addr, port = v["AZ_BATCH_MASTER_NODE"].split(":")[0], v.get("MASTER_PORT", "6105")
    env.set(
        DEEPSPEED,
        RANK=v["OMPI_COMM_WORLD_RANK"],
        WORLD_SIZE=v["OMPI_COMM_WORLD_SIZE"],
        MASTER_ADDR=addr,
        MASTER_PORT=port,
        NCCL_SOCKET_IFNAME=AML_NCCL_SOCKET_IFNAME,
        LOCAL_RANK=v["OMPI_COMM_WORLD_LOCAL_RANK"],
    )


def engine_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`deepspeed.initialize`, given its config once; a batch size the plan's ranks divide; the
    data sharded by rank."""
    inits = src.find("deepspeed.initialize", "initialize")
    if not inits:
        yield src.finding(
            None,
            "deepspeed.initialize(...) is never called: the model is not a DeepSpeed engine",
            "model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, "
            "model_parameters=model.parameters())",
            "deepspeed_not_initialized",
        )
    passes = "--deepspeed_config" in plan.argv or "--deepscale_config" in plan.argv
    for call in inits:
        config = keyword(call, "config") or keyword(call, "config_params")
        if config is not None and keyword(call, "args") is not None and passes:
            yield src.finding(
                call,
                "deepspeed.initialize gets config= and, through args, the --deepspeed_config "
                "the plan's command passes: DeepSpeed refuses both ('Not sure how to proceed, "
                "we were given deepspeed configs in the deepspeed arguments and "
                "deepspeed.initialize() function call')",
                "drop config= (the command's file is used), or leave args out of initialize",
                "deepspeed_config_twice",
            )
    yield from _batch(src, plan)
    yield from _engine_never_stepped(src, inits)
    fed = any(keyword(c, "training_data") is not None for c in inits)
    if not fed:
        yield from sampler_rules(src, plan)
    yield from write_rules(src, plan)


def _engine_never_stepped(src: ScriptFacts, inits: list[ast.Call]) -> Iterator[Finding]:
    """An engine trained with the plain `loss.backward()`: no `engine.backward(loss)` (nor any
    backward given the loss) and no `engine.step()`, so ZeRO's optimizer never steps."""
    engines = {name for call in inits for name in _engine_names(src, call)}
    if not engines:
        return
    stepped = any(
        (last == "step" and receiver in engines) or (last == "backward" and call.args)
        for _, call in src.calls
        for receiver, _, last in [dotted(call.func).rpartition(".")]
    )
    plain = [c for _, c in src.calls if dotted(c.func).endswith(".backward") and not c.args]
    if stepped or not plain:
        return
    engine = sorted(engines)[0]
    yield src.finding(
        plain[0],
        f"{engine} is the engine deepspeed.initialize returns, but training calls "
        f"{ast.unparse(plain[0].func)}() and never {engine}.backward(loss) or {engine}.step(): "
        "the engine's optimizer never steps, so the weights never change",
        f"replace it with {engine}.backward(loss), then call {engine}.step() (it steps the "
        "optimizer and zeroes the gradients)",
        "engine_step_missing",
    )


def _engine_names(src: ScriptFacts, call: ast.Call) -> list[str]:
    """The name `x = deepspeed.initialize(...)` (or its tuple's first) binds the engine to."""
    stmt = src.statement(call)
    if not isinstance(stmt, ast.Assign) or stmt.value is not call:
        return []
    names = []
    for target in stmt.targets:
        first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
        if isinstance(first, ast.Name | ast.Attribute):
            names.append(dotted(first))
    return names


def _batch(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A literal train_batch_size (a config dict in the script, or the job's own config file)
    that DeepSpeed refuses at the plan's world size."""
    for module in src.modules:
        for node in module.nodes:
            if not isinstance(node, ast.Dict) or not src.runs(node):
                continue
            config = {
                constant(k): constant(v)
                for k, v in zip(node.keys, node.values, strict=True)
                if k is not None
            }
            if "train_batch_size" not in config:
                continue
            problem = refused_batch(config, plan.world)
            if problem:
                yield src.finding(node, problem, BATCH_FIX, "batch_not_divisible")
    yield from config_file_rules(plan, ds.given_config(plan.spec))


def config_arguments(src: ScriptFacts, parser: Parser) -> None:
    """`deepspeed.add_config_arguments(parser)` adds --deepspeed and --deepspeed_config."""
    if parser.style == "argparse" and src.find("add_config_arguments"):
        parser.args += [
            Arg(("--deepspeed",), "deepspeed", takes="none"),
            Arg(("--deepspeed_config",), "deepspeed_config"),
            Arg(("--deepscale",), "deepscale", takes="none"),
            Arg(("--deepscale_config",), "deepscale_config"),
        ]


class DeepSpeed(PyTorch):
    """DeepSpeed's engine (ZeRO), started by Azure ML, torchrun or mpirun."""

    name = "deepspeed"
    title = "DeepSpeed"
    tagline = "ZeRO sharding for large models"
    options: ClassVar[dict[str, Any]] = {"deepspeed_config": None, "zero_stage": None}
    launch_options = (
        Option(
            "deepspeed_via",
            "DeepSpeed runs under Azure ML's",
            (
                ("pytorch distribution (RANK, WORLD_SIZE)", "pytorch"),
                ("mpi distribution (mpirun, OMPI_COMM_WORLD_*)", "mpi"),
            ),
        ),
    )
    code_form = Form(
        f"DeepSpeed config ({ds.CONFIG_NAME})",
        (
            Option("ds_micro_batch", "Micro batch/GPU"),
            Option("ds_grad_accum", "Grad. accumulation"),
            Option(
                "zero_stage",
                "ZeRO stage",
                (
                    ("2: shard optimizer states + gradients (default)", 2),
                    ("0: no sharding", 0),
                    ("1: shard optimizer states", 1),
                    ("3: shard everything, parameters too", 3),
                ),
                default=ds.DEFAULT_STAGE,
            ),
            Option(
                "ds_offload",
                "Offload",
                (("none", "none"), ("to CPU memory", "cpu"), ("to local NVMe", "nvme")),
            ),
            Option(
                "ds_precision",
                "Precision",
                (
                    ("auto: what the GPU does best", "auto"),
                    ("bf16", "bf16"),
                    ("fp16", "fp16"),
                    ("fp32", "fp32"),
                ),
            ),
        ),
        own_file="Your config file is used as it is (see Review › DeepSpeed).",
    )
    field_labels: ClassVar[dict[str, str]] = {
        "zero_stage": "ZeRO stage",
        "deepspeed_config": "DeepSpeed config",
        "ds_micro_batch": "Micro batch/GPU",
        "ds_grad_accum": "Grad. accumulation",
        "ds_offload": "Offload",
        "ds_precision": "Precision",
    }
    distributions: ClassVar[dict[str, str]] = {
        "pytorch": "PyTorchDistribution",
        "mpi": "MpiDistribution",
    }
    config_title = "DeepSpeed config"
    config_name = ds.CONFIG_NAME
    config_tab = "DeepSpeed"
    option_rule = "is a DeepSpeed option; clear it or choose the deepspeed framework"
    launchers = ()
    origins = (DEEPSPEED,)
    packages = (Package("deepspeed", "deepspeed", "deepspeed"),)
    assumed_modules = ("torch", "deepspeed")
    example = "deepspeed"
    sample_script = "train_deepspeed.py"
    guess_order = 20
    mechanisms = ("DeepSpeed", "deepspeed", "ZeRO", "ds_config")
    init_call = "`deepspeed.init_distributed()`"
    glossary = ()
    script_rules = (engine_rules, launch_rules, indexed_device_rules)
    script_parser_adders = ("add_config_arguments",)

    def script_parser_extras(self, src: ScriptFacts, parser: Parser) -> None:
        config_arguments(src, parser)

    def problems(self, spec: JobSpec) -> list[tuple[str, str]]:
        if ds.given_config(spec) and spec.zero_stage is not None:
            return [
                (
                    "zero_stage",
                    "the DeepSpeed config file sets the ZeRO stage; give one or the other",
                )
            ]
        return []

    def uses_mpi(self, spec: JobSpec) -> bool:
        return spec.deepspeed_via == "mpi"

    def discovers_ranks(self, spec: JobSpec) -> bool:
        """One process per GPU under mpirun: it finds its ranks through Azure ML's marker."""
        return self.uses_mpi(spec) and spec.launch == "per_process"

    def args(self, spec: JobSpec) -> list[str]:
        # The user's config file, or the one built from the plan and written into the code
        # folder: `deepspeed.add_config_arguments` reads both flags.
        if spec.deepspeed_config is None and ds.given_config(spec):
            return []  # the arguments name the config: the user's command, as written (a bare
            # `--deepspeed` after it is an abbreviation of a script's own --deepspeed_config)
        return ["--deepspeed", ds.ARG, spec.deepspeed_config or ds.CONFIG_NAME]

    def node_env(self, target: Target, n: int, addr: str) -> dict[str, object]:
        """The Azure ML variables DeepSpeed reads under the mpi distribution. Azure ML sets
        AZUREML_EXPERIMENT_ID on every job (the plan lists it where a framework reads it);
        AZ_BATCHAI_MPI_MASTER_NODE is where DeepSpeed looks for the master on one host."""
        values: dict[str, object] = {
            "AZUREML_EXPERIMENT_ID": "<experiment id>" if target.kind == "azureml" else "local"
        }
        if target.kind == "local" or n == 1:
            values["AZ_BATCHAI_MPI_MASTER_NODE"] = addr
        return values

    def process_env(
        self,
        env: EnvBuilder,
        spec: JobSpec,
        target: Target,
        vcpus: int | None,
        launcher: Launcher | None,
    ) -> None:
        env.set(DEEPSPEED, PYTORCH_NVML_BASED_CUDA_CHECK="1")  # on import
        if self.uses_mpi(spec) and launcher is None:  # one process per GPU under mpirun
            _reads_open_mpi(env)

    def config_file(self, spec: JobSpec, sku: Sku | None, world: int) -> ConfigFile | None:
        if spec.command is not None or ds.given_config(spec):
            return None
        return ConfigFile(
            self.config_name,
            self.config_title,
            "deepspeed_config",
            ds.build_config(spec, sku, world),
            tuple(ds.explain(spec, sku, world)),
        )

    def user_config(self, spec: JobSpec) -> Path | None:
        return ds.user_config_path(spec)

    def user_config_text(self, spec: JobSpec) -> str | None:
        path = ds.user_config_path(spec)
        if path is None:
            return None
        try:
            return ds.render(ds.read_config(path))
        except ds.ConfigProblem as err:
            raise ValueError(f"deepspeed_config: {err}") from None

    def user_config_problems(self, spec: JobSpec, world: int) -> list[str]:
        return ds.user_config_problems(spec, world)

    def notes(self, spec: JobSpec, target: Target, config: ConfigFile | None) -> list[str]:
        lines = super().notes(spec, target, config)
        if not self.discovers_ranks(spec):
            return lines
        local = target.kind == "local"
        one_host = local or spec.nodes == 1
        return [
            *lines,
            "Under mpirun no process has RANK, so `deepspeed.init_distributed()` finds "
            "AZUREML_EXPERIMENT_ID (Azure ML sets it on every job) and sets RANK, WORLD_SIZE and "
            "LOCAL_RANK from Open MPI's, NCCL_SOCKET_IFNAME to ^docker0,lo, and MASTER_ADDR:"
            "MASTER_PORT to "
            + (
                f"AZ_BATCHAI_MPI_MASTER_NODE:{AML_ONE_HOST_PORT}, as every rank is on "
                + ("this one host." if local else "one node.")
                if one_host
                else "AZ_BATCH_MASTER_NODE's address and 6105 (not its port)."
            )
            + " It reads NCCL_SOCKET_IFNAME first for a log line, a KeyError where the image "
            "leaves it unset, unless `verbose=False` (the example passes it).",
        ]

    def one_host_note(self, spec: JobSpec) -> str:
        """What the local-rank warning adds for this framework on one host."""
        return " (DeepSpeed copies the first into LOCAL_RANK)" if self.discovers_ranks(spec) else ""

    def recognises(self, distribution: str, command: str) -> bool:
        return "--deepspeed" in command or re.search(r"(^|\s)deepspeed\s", command) is not None

    def imported(self, distribution: str, command: str, fields: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if distribution in ("pytorch", "mpi"):
            out["deepspeed_via"] = "mpi" if distribution == "mpi" else "pytorch"
        config = ds.CONFIG_ARG.search(command)
        if config:  # the command names its config: no generated one, no warning about none
            out["deepspeed_config"] = config.group(1).strip("'\"")
        return out

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        # The example's shipped config: read, never written, so the samples stay as shipped.
        return {
            "script": self.sample_script,
            "deepspeed_config": ds.CONFIG_NAME,
            "zero_stage": None,
        }

    def why(self, step: str, spec: JobSpec) -> str:
        if step == "framework":
            return (
                "DeepSpeed adds ZeRO: optimizer states, gradients and (stage 3) parameters are "
                "sharded across GPUs, so larger models fit. It needs a fast interconnect between "
                "nodes."
            )
        return super().why(step, spec)
