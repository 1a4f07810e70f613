"""Hugging Face: the Trainer and Accelerate read the rank variables themselves. Per-node, the
command wraps the script in `accelerate launch` (this module's launcher) or torchrun."""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from tui.core.plan_types import EnvBuilder, EnvVar, Origin
from tui.frameworks.base import Launcher, Option, Package, Refs
from tui.frameworks.deepspeed import DEEPSPEED
from tui.frameworks.pytorch import (
    ELASTIC_ROOT_CAUSE,
    TORCHRUN_LAUNCHER,
    PyTorch,
    elastic_split_env,
    torchrun_worker_env,
)
from tui.frameworks.pytorch_data import device_map_rules
from tui.frameworks.pytorch_script import launch_rules
from tui.frameworks.pytorch_wrap import wrapped_copy_rules
from tui.frameworks.pytorch_writes import write_rules
from tui.scripts.args import Arg, Parser
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.places import NODE, place, where_is
from tui.scripts.syntax import constant, dotted, keyword

if TYPE_CHECKING:
    from tui.core.plan_types import Target
    from tui.core.spec import JobSpec

ACCELERATE = Origin("accelerate", "launcher")

_ACCELERATE_LAUNCH = re.compile(r"(^|[\s;&|])(accelerate\s+launch)(?=\s)")


def _head(spec: JobSpec, refs: Refs) -> list[str]:
    n, g = spec.nodes, spec.gpus_per_node
    head = ["accelerate", "launch"]
    if n * g > 1:
        head.append("--multi_gpu")
    return [
        *head,
        f"--num_machines {n}",
        f"--num_processes {n * g}",
        f"--machine_rank {refs.node_rank}",
        f"--main_process_ip {refs.master_addr}",
        f"--main_process_port {refs.master_port}",
    ]


def _worker_env(env: EnvBuilder, *args: Any) -> None:
    torchrun_worker_env(env, ACCELERATE, *args)
    # `accelerate launch` passes these to every worker it starts.
    env.set(
        ACCELERATE,
        ACCELERATE_MIXED_PRECISION="no",
        ACCELERATE_DYNAMO_BACKEND="NO",
        ACCELERATE_DYNAMO_MODE="default",
        ACCELERATE_DYNAMO_USE_FULLGRAPH="False",
        ACCELERATE_DYNAMO_USE_DYNAMIC="False",
        ACCELERATE_DYNAMO_USE_REGIONAL_COMPILATION="False",
        PYTORCH_NVML_BASED_CUDA_CHECK="1",
    )


def _tee(command: str, notes: list[str]) -> str:
    """`accelerate launch` with `--tee 3`, so each worker's lines reach its own rank log.

    torchrun reads PET_TEE from the environment, but accelerate passes its own `--tee` (default
    0) to torchrun, which wins; the flag is the only way. Nothing else changes, and a command
    that already tees is left alone.
    """
    found = _ACCELERATE_LAUNCH.search(command)
    if found is None or _tees(command[found.end() :]):
        return command
    note = (
        "note: `accelerate launch` runs here with `--tee 3` added, so each worker's lines go "
        "to its own rank log; the command is otherwise the plan's"
    )
    if note not in notes:
        notes.append(note)
    return _ACCELERATE_LAUNCH.sub(r"\1\2 --tee 3", command, count=1)


_FLAGS = frozenset(
    {"-h", "--help", "-q", "--quiet", "--cpu", "--multi_gpu", "--multi-gpu", "--tpu",
     "--enable_cpu_affinity", "--enable-cpu-affinity", "--dynamo_use_fullgraph",
     "--dynamo-use-fullgraph", "--dynamo_use_dynamic", "--dynamo-use-dynamic",
     "--dynamo_use_regional_compilation", "--dynamo-use-regional-compilation",
     "--use_deepspeed", "--use-deepspeed", "--use_fsdp", "--use-fsdp",
     "--use_parallelism_config", "--use-parallelism-config", "--use_megatron_lm",
     "--use-megatron-lm", "--same_network", "--same-network", "-m", "--module", "--no_python",
     "--no-python", "--tpu_cluster", "--tpu-cluster", "--no_tpu_cluster", "--no-tpu-cluster",
     "--tpu_use_sudo", "--tpu-use-sudo", "--downcast_bf16", "--downcast-bf16",
     "--fp8_use_autocast_during_eval", "--fp8-use-autocast-during-eval", "--debug"}
)  # fmt: skip
"""`accelerate launch`'s options that take no value (accelerate 1.x); every other takes one."""


def _tees(after_launch: str) -> bool:
    """Whether `accelerate launch`'s own options (what follows it, up to the script) hold a
    `--tee`: the script's arguments (`train.py -t 5`, `--tee out.txt`) are the script's."""
    try:
        words = shlex.split(after_launch)
    except ValueError:  # an unclosed quote: the words as the shell's spaces cut them
        words = after_launch.split()
    value_next = False
    for word in words:
        if value_next:
            value_next = False
        elif word == "--tee" or word.startswith("--tee=") or word[:2] == "-t":  # -t, -t3
            return True
        elif not word.startswith("-"):
            return False  # the script: the rest is its own
        elif "=" not in word and word not in _FLAGS:
            value_next = True
    return False


ACCELERATE_LAUNCHER = Launcher(
    "accelerate",
    spawns=True,
    modules=("accelerate", "torch"),
    head=_head,
    worker_env=_worker_env,
    detect=re.compile(r"(^|[\s;&|])accelerate\s+launch\s"),
    local_command=_tee,
    split_env=elastic_split_env,
    root_cause=ELASTIC_ROOT_CAUSE,
)


def accelerate_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """What an Accelerator is given to prepare: a DataLoader it never sees is not sharded."""
    made = src.find("Accelerator")
    if not made:
        return
    prepares = src.find("prepare", "prepare_data_loader", "prepare_model")
    if not prepares and not _hf_trainer(src):  # a Trainer prepares what it trains itself
        yield src.finding(
            made[0],
            "an Accelerator, but nothing is passed to accelerator.prepare: the model is not "
            f"wrapped and each of the {plan.world} processes reads the whole dataset",
            "model, optimizer, loader = accelerator.prepare(model, optimizer, loader)",
            "accelerate_not_prepared",
        )
        return
    given = {n.id for c in prepares for n in ast.walk(c) if isinstance(n, ast.Name)}
    for loader in src.find("DataLoader"):
        bound = src.parents.get(loader)
        if isinstance(bound, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id not in given for t in bound.targets
        ):
            yield src.finding(
                loader,
                "this DataLoader never goes through accelerator.prepare: each of the "
                f"{plan.world} processes reads all of it",
                "pass it to accelerator.prepare(...) with the model and optimizer",
                "accelerate_not_prepared",
            )


def hf_parser(src: ScriptFacts) -> Parser | None:
    """HfArgumentParser over dataclasses: their fields, and TrainingArguments' own."""
    made = src.find("HfArgumentParser")
    parses = src.find("parse_args_into_dataclasses", "parse_args")
    if not made or not parses:
        return None
    parse = parses[0]
    parser = Parser("HfArgumentParser", parse)
    parser.file_arg = bool(src.find("parse_json_file", "parse_yaml_file"))
    parser.open = constant(keyword(parse, "return_remaining_strings")) is True
    named = (n for a in made[0].args for n in ast.walk(a))
    for node in (n for n in named if isinstance(n, ast.Name | ast.Attribute)):
        if isinstance(node, ast.Name) and node.id in src.classes:
            parser.args += _fields(src.classes[node.id])
        elif dotted(node).split(".")[-1].endswith(("Arguments", "Config")):
            parser.args += training_args(dotted(node))  # a library's: TrainingArguments' fields,
            parser.open = parser.open or not dotted(node).endswith("TrainingArguments")
    return parser  # and a library's other dataclass (trl's RewardConfig) has fields unread


def _fields(cls: ast.ClassDef) -> list[Arg]:
    out = []
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
            bare = stmt.value is None or (
                isinstance(stmt.value, ast.Call)
                and not {k.arg for k in stmt.value.keywords} & {"default", "default_factory"}
            )
            note = ast.dump(stmt.annotation)
            flag = "bool" in note
            names = (f"--{name}", f"--no_{name}") if flag else (f"--{name}",)
            arg = Arg(names, name, stmt, takes="optional" if flag else "one")
            arg.required = bare
            out.append(arg)
    for base in cls.bases:
        if dotted(base).endswith("TrainingArguments"):
            out += training_args(dotted(base))
    return out


def training_args(name: str = "TrainingArguments") -> list[Arg]:
    """TrainingArguments as options (Seq2SeqTrainingArguments' own fields too): --deepspeed
    takes a file; the rest a value, or none for a flag (which are booleans is left open)."""
    names = TRAINING_FIELDS + (SEQ2SEQ_FIELDS if "Seq2Seq" in name else ())
    fields = [Arg((f"--{f}",), f, takes="optional") for f in names if f != "deepspeed"]
    return [Arg(("--deepspeed",), "deepspeed"), *fields]


TRAINING_FIELDS = (
    "accelerator_config", "activation_checkpointing", "activation_checkpointing_kwargs",
    "adam_beta1", "adam_beta2", "adam_epsilon", "auto_find_batch_size",
    "average_tokens_across_devices", "batch_eval_metrics", "bf16", "bf16_full_eval", "data_seed",
    "dataloader_drop_last", "dataloader_in_order", "dataloader_multiprocessing_context",
    "dataloader_num_workers", "dataloader_persistent_workers", "dataloader_pin_memory",
    "dataloader_prefetch_factor", "ddp_backend", "ddp_broadcast_buffers", "ddp_bucket_cap_mb",
    "ddp_find_unused_parameters", "ddp_static_graph", "ddp_timeout", "debug", "deepspeed",
    "disable_tqdm", "do_eval", "do_predict", "do_train", "enable_jit_checkpoint",
    "eval_accumulation_steps", "eval_delay", "eval_do_concat_batches", "eval_on_start",
    "eval_steps", "eval_strategy", "eval_use_gather_object", "evaluation_strategy", "fp16",
    "fp16_backend", "fp16_full_eval", "fsdp", "fsdp_config", "full_determinism",
    "gradient_accumulation_steps", "gradient_checkpointing", "gradient_checkpointing_kwargs",
    "greater_is_better", "hub_always_push", "hub_model_id", "hub_private_repo", "hub_revision",
    "hub_strategy", "hub_token", "ignore_data_skip", "include_for_metrics",
    "include_num_input_tokens_seen", "label_names", "label_smoothing_factor", "learning_rate",
    "length_column_name", "liger_kernel_config", "load_best_model_at_end", "local_rank",
    "log_level", "log_level_replica", "log_on_each_node", "logging_dir", "logging_first_step",
    "logging_nan_inf_filter", "logging_steps", "logging_strategy", "lr_scheduler_kwargs",
    "lr_scheduler_type", "max_grad_norm", "max_steps", "metric_for_best_model",
    "neftune_noise_alpha", "no_cuda", "num_train_epochs", "optim", "optim_args",
    "optim_target_modules", "output_dir", "overwrite_output_dir", "parallelism_config",
    "per_device_eval_batch_size", "per_device_train_batch_size", "prediction_loss_only",
    "project", "push_to_hub", "push_to_hub_model_id", "push_to_hub_organization",
    "remove_unused_columns", "report_to", "restore_callback_states_from_checkpoint",
    "resume_from_checkpoint", "run_name", "save_on_each_node", "save_only_model", "save_steps",
    "save_strategy", "save_total_limit", "seed", "sharded_ddp", "skip_memory_metrics", "tf32",
    "torch_compile", "torch_compile_backend", "torch_compile_mode", "torch_empty_cache_steps",
    "tpu_num_cores", "trackio_bucket_id", "trackio_space_id", "trackio_static_space_id",
    "train_sampling_strategy", "use_cache", "use_cpu", "use_liger_kernel", "use_mps_device",
    "warmup_steps", "weight_decay", "xpu_backend",
    # transformers 4.x names since dropped (scripts written for 4.x still pass them)
    "adafactor", "dispatch_batches", "fp16_opt_level", "fsdp_min_num_params",
    "fsdp_transformer_layer_cls_to_wrap", "group_by_length", "half_precision_backend",
    "include_inputs_for_metrics", "include_tokens_per_second", "jit_mode_eval", "mp_parameters",
    "past_index", "per_gpu_eval_batch_size", "per_gpu_train_batch_size", "push_to_hub_token",
    "ray_scope", "save_safetensors", "split_batches", "torchdynamo", "tpu_metrics_debug",
    "use_ipex", "use_legacy_prediction_loop", "warmup_ratio",
)  # fmt: skip
"""TrainingArguments' fields (transformers 5.24, and older names: evaluation_strategy, the 4.x
fields above), each a --flag of HfArgumentParser."""
SEQ2SEQ_FIELDS = (
    "sortish_sampler", "predict_with_generate", "generation_max_length", "generation_num_beams",
    "generation_config",
)  # fmt: skip
"""Seq2SeqTrainingArguments' own fields, beside TrainingArguments'."""


def _hf_trainer(src: ScriptFacts) -> bool:
    """A transformers / trl Trainer (Trainer, Seq2SeqTrainer, SFTTrainer, GRPOTrainer, …)."""
    if not src.imports_any("transformers", "trl"):
        return False
    for name, _ in src.calls:
        last = name.split(".")[-1]
        if not last.endswith("Trainer"):
            continue
        if name.startswith(("transformers.", "trl.")):
            return True
        own = src.classes.get(last)  # class MyTrainer(Trainer), Trainer from transformers
        if own is not None and any(
            src.module_of[own].resolve(dotted(b)).startswith(("transformers.", "trl."))
            for b in own.bases
        ):
            return True
    return False


def trainer_checkpoint_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A Trainer that runs DeepSpeed saves each checkpoint as every rank's partition of it (the
    optimizer's states, ZeRO-3's weights) into `output_dir`: a folder of each node's own copy
    of the code, so on two nodes or more no node holds a whole checkpoint to resume from."""
    if plan.nodes <= 1 or not _hf_trainer(src):
        return
    made = next((c for n, c in src.calls if n.split(".")[-1].endswith("TrainingArguments")), None)
    given = keyword(made, "deepspeed") if made is not None else None
    deepspeed = _argv_value(plan, "deepspeed") is not None or (
        (given is not None and constant(given) is not None)
        or isinstance(given, ast.Name | ast.Attribute)
    )
    saving = keyword(made, "save_strategy") if made is not None else None
    if not deepspeed or constant(saving) == "no" or _argv_value(plan, "save_strategy") == "no":
        return
    folder = keyword(made, "output_dir") if made is not None else None
    where = place(src, plan, folder) if folder is not None else None
    text = where.text if where is not None else _argv_value(plan, "output_dir")
    if (where.where if where is not None else text and where_is(text)) != NODE:
        return
    train = next((c for n, c in src.calls if n.endswith("trainer.train") and not plan.off(c)), None)
    if train is not None:
        yield src.finding(
            train,
            f"the Trainer runs DeepSpeed and saves every checkpoint as each rank's part of it "
            f"into {text}, a folder of each node's own disk: the parts are scattered over the "
            f"{plan.nodes} nodes and no node can resume from it",
            "set output_dir under outputs/ (Azure ML gathers every node's files) or to a "
            "mounted datastore output (`${{outputs.checkpoints}}`)",
            "checkpoint_node_local",
        )


def _argv_value(plan: CheckPlan, flag: str) -> str | None:
    """The value the plan's command gives `--flag` (`--flag X` or `--flag=X`), if it does."""
    argv = plan.argv
    for i, arg in enumerate(argv):
        if arg == f"--{flag}":
            return argv[i + 1] if i + 1 < len(argv) else ""
        if arg.startswith(f"--{flag}="):
            return arg.split("=", 1)[1]
    return None


class HuggingFace(PyTorch):
    """transformers' Trainer, or Accelerate."""

    name = "huggingface"
    title = "Hugging Face (Trainer / Accelerate)"
    tagline = "Trainer or Accelerate"
    default_launch = "per_node"
    launchers = (ACCELERATE_LAUNCHER,)
    origins = (ACCELERATE,)
    packages = (
        Package("transformers", "transformers", "huggingface"),
        Package("accelerate", "accelerate", "huggingface"),
    )
    assumed_modules = ("torch", "transformers")
    launch_options = (
        Option(
            "hf_launcher",
            "Launcher on each node",
            (("accelerate launch", "accelerate"), ("torchrun", "torchrun")),
            when=lambda spec: spec.launch == "per_node",
        ),
    )
    example = "huggingface"
    sample_script = "train_hf.py"
    guess_order = 50
    mechanisms = ("accelerate", "Accelerator", "transformers")
    init_call = "`Trainer()` or `Accelerator()`, which join the process group"
    glossary = ()

    def script_takeover(self, src: ScriptFacts) -> str | None:
        if src.find("Accelerator") or _hf_trainer(src):
            return (
                "Hugging Face Trainer / Accelerate read RANK, LOCAL_RANK and WORLD_SIZE "
                "themselves: no process group, sampler or rank-0 guard to write"
            )
        return None

    script_rules = (*PyTorch.script_rules,)
    takeover_rules = (
        accelerate_rules, launch_rules, write_rules, wrapped_copy_rules, device_map_rules,
        trainer_checkpoint_rules,
    )  # fmt: skip

    def script_parser(self, src: ScriptFacts) -> Parser | None:
        return hf_parser(src)

    def script_notes(self, src: ScriptFacts) -> list[str]:
        return ["no Trainer or Accelerator: checked as a plain PyTorch DDP loop"]

    def launcher(self, spec: JobSpec) -> Launcher | None:
        if spec.launch != "per_node":
            return None
        return ACCELERATE_LAUNCHER if spec.hf_launcher == "accelerate" else TORCHRUN_LAUNCHER

    def process_env(
        self,
        env: EnvBuilder,
        spec: JobSpec,
        target: Target,
        vcpus: int | None,
        launcher: Launcher | None,
    ) -> None:
        if launcher is ACCELERATE_LAUNCHER:
            return
        # Not from a launcher: the Trainer imports DeepSpeed where it is installed (the ACPT
        # images have it), and DeepSpeed sets this on import.
        env.vars["PYTORCH_NVML_BASED_CUDA_CHECK"] = EnvVar(
            "PYTORCH_NVML_BASED_CUDA_CHECK",
            "1",
            DEEPSPEED,
            "where DeepSpeed is installed: the Trainer imports it",
        )

    def recognises(self, distribution: str, command: str) -> bool:
        return "accelerate launch" in command or "transformers" in command

    def imported(self, distribution: str, command: str, fields: dict[str, Any]) -> dict[str, Any]:
        if fields.get("launch") != "per_node":
            return {}
        return {"hf_launcher": "accelerate" if "accelerate launch" in command else "torchrun"}

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        # accelerate is not needed to show the launch
        return {"script": self.sample_script, "hf_launcher": "torchrun"}

    def why(self, step: str, spec: JobSpec) -> str:
        if step == "framework":
            return (
                "The Trainer (and Accelerate) read the rank variables from the environment, "
                "so a single-GPU script becomes distributed without code changes."
            )
        return super().why(step, spec)
