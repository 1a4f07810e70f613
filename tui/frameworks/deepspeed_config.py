"""The DeepSpeed config (`ds_config.json`) built from the plan's numbers, and a user's checked.

DeepSpeed refuses to start when `train_batch_size` is not `train_micro_batch_size_per_gpu ×
gradient_accumulation_steps × world size`, and the world size changes whenever nodes or GPUs
do; so the config is derived from the plan, never typed. A user's own config file is read and
checked against the same arithmetic, and never rewritten: the script check says so at the
line that sets it (`config_file_rules`, `engine_config_rules`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.core.catalog import Sku
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.syntax import keyword

if TYPE_CHECKING:
    from tui.core.spec import JobSpec

CONFIG_NAME = "ds_config.json"
ARG = "--deepspeed_config"
"""The flag `deepspeed.add_config_arguments` adds, naming the config file."""
CONFIG_ARG = re.compile(r"--deepspeed(?:_config)?[= ]((?!-)\S+\.json\b['\"]?)")
"""A command's own config file (`--deepspeed_config ds.json`, Hugging Face's `--deepspeed
ds.json`)."""
"""The generated config's file name, in the code folder (the job's working directory)."""

DEFAULT_STAGE = 2
"""ZeRO-2 shards optimizer states and gradients: the guide's usual start for multi-GPU jobs."""

MAX_CONFIG_BYTES = 1 << 20

# GPUs with bfloat16 in hardware: NVIDIA from Ampere (compute capability 8.0: A100, A10, L40)
# through Hopper and Blackwell, and AMD's CDNA 2/3 (MI200, MI300). V100 (Volta) and K80 have none.
_BF16_GPUS = ("A100", "A10", "L40", "H100", "H200", "GB200", "B200", "MI200", "MI250", "MI300")
_FP16_GPUS = ("V100", "T4", "P100")


@dataclass(frozen=True)
class Precision:
    """The precision a config uses, and why, in the user's terms."""

    name: str  # "bf16", "fp16" or "fp32"
    why: str


def precision_for(spec: JobSpec, sku: Sku | None) -> Precision:
    """`spec.ds_precision`, or, on "auto", what the GPU does best (bf16 needs Ampere or newer)."""
    if spec.ds_precision != "auto":
        return Precision(spec.ds_precision, "chosen in the job")
    if sku is None:
        return Precision("fp16", "the VM size is not known; fp16 runs on every training GPU")
    gpu = sku.gpu_model
    if any(name in gpu for name in _BF16_GPUS):
        return Precision(
            "bf16",
            f"{gpu} has bfloat16 in hardware: fp32's range at half the memory, no loss scaling",
        )
    if any(name in gpu for name in _FP16_GPUS):
        return Precision(
            "fp16",
            f"{gpu} has no bfloat16 (it arrived with Ampere); fp16 with dynamic loss scaling",
        )
    return Precision("fp32", f"{gpu} has no fast half precision")


def train_batch_size(micro: int, accumulation: int, world_size: int) -> int:
    return micro * accumulation * world_size


def arithmetic(micro: int, accumulation: int, world_size: int) -> str:
    """The rule DeepSpeed enforces, in the user's numbers."""
    total = train_batch_size(micro, accumulation, world_size)
    return (
        f"train_batch_size = micro batch {micro} × accumulation {accumulation} × "
        f"WORLD_SIZE {world_size} = {total}"
    )


def build_config(spec: JobSpec, sku: Sku | None, world_size: int) -> dict[str, Any]:
    """The `ds_config.json` for `spec` at `world_size` ranks."""
    stage = spec.zero_stage if spec.zero_stage is not None else DEFAULT_STAGE
    micro, accumulation = spec.ds_micro_batch, spec.ds_grad_accum
    zero: dict[str, Any] = {"stage": stage}
    if spec.ds_offload != "none":
        target: dict[str, Any] = {"device": spec.ds_offload, "pin_memory": True}
        if spec.ds_offload == "nvme":
            target["nvme_path"] = "/tmp/deepspeed_nvme"  # the node's local NVMe scratch
        if stage >= 1:
            zero["offload_optimizer"] = dict(target)
        if stage == 3:
            zero["offload_param"] = dict(target)
    if stage >= 2:
        zero |= {"overlap_comm": True, "contiguous_gradients": True}
    config: dict[str, Any] = {
        "train_batch_size": train_batch_size(micro, accumulation, world_size),
        "train_micro_batch_size_per_gpu": micro,
        "gradient_accumulation_steps": accumulation,
        "zero_optimization": zero,
        "gradient_clipping": 1.0,
        "steps_per_print": 10,
    }
    precision = precision_for(spec, sku).name
    if precision == "bf16":
        config["bf16"] = {"enabled": True}
    elif precision == "fp16":
        config["fp16"] = {"enabled": True, "loss_scale": 0, "initial_scale_power": 16}
    return config


def render(config: dict[str, Any]) -> str:
    return json.dumps(config, indent=2) + "\n"


def explain(spec: JobSpec, sku: Sku | None, world_size: int) -> list[str]:
    """What the generated config says, with the user's numbers."""
    stage = spec.zero_stage if spec.zero_stage is not None else DEFAULT_STAGE
    lines = [
        arithmetic(spec.ds_micro_batch, spec.ds_grad_accum, world_size)
        + "; DeepSpeed refuses a config where these disagree, so it follows nodes and GPUs.",
        f"ZeRO stage {stage}: {_STAGES[stage]}",
    ]
    if spec.ds_offload != "none":
        lines.append(
            f"Offload to {spec.ds_offload}: frees GPU memory for larger models at the cost of "
            "step time (optimizer states move over PCIe)."
        )
    p = precision_for(spec, sku)
    lines.append(f"Precision {p.name}: {p.why}.")
    return lines


_STAGES = {
    0: "no sharding (plain data parallel with DeepSpeed's engine)",
    1: "optimizer states sharded over all ranks",
    2: "optimizer states and gradients sharded over all ranks",
    3: "optimizer states, gradients and parameters sharded (largest models, most communication)",
}


# ---- a user's own config ---------------------------------------------------------------------


class ConfigProblem(ValueError):
    """A user's DeepSpeed config that cannot be read (one line)."""


def read_config(path: Path) -> dict[str, Any]:
    """A user's DeepSpeed JSON, or ConfigProblem naming the file and the cause."""
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigProblem(f"{path}: larger than 1 MB; not a DeepSpeed config")
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigProblem(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigProblem(f"{path}: cannot be read ({err.__class__.__name__})") from None
    except json.JSONDecodeError as err:
        raise ConfigProblem(f"{path}: not JSON (line {err.lineno}: {err.msg})") from None
    if not isinstance(data, dict):
        raise ConfigProblem(f"{path}: a DeepSpeed config is a JSON object")
    return data


def check_config(config: dict[str, Any], world_size: int) -> list[str]:
    """What in `config` DeepSpeed would refuse at `world_size` ranks, with the numbers.

    DeepSpeed fills in one of the three batch values from the other two ("auto" and missing
    values are left to it); it refuses only when all three are given and disagree.
    """

    def number(key: str) -> int | None:
        value = config.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    total = number("train_batch_size")
    micro = number("train_micro_batch_size_per_gpu")
    accumulation = number("gradient_accumulation_steps")
    problems: list[str] = []
    if total is not None and micro is not None:
        accumulation = accumulation if accumulation is not None else 1
        expected = train_batch_size(micro, accumulation, world_size)
        if total != expected:
            fix = (
                f"set train_batch_size to {expected}"
                if total % (micro * world_size)
                else f"set gradient_accumulation_steps to {total // (micro * world_size)}"
            )
            problems.append(
                f"train_batch_size is {total} but micro batch {micro} × accumulation "
                f"{accumulation} × WORLD_SIZE {world_size} = {expected}; DeepSpeed will refuse "
                f"it: {fix}"
            )
    elif total is not None and total % world_size:
        problems.append(
            f"train_batch_size {total} is not divisible by WORLD_SIZE {world_size}; "
            "DeepSpeed will refuse it"
        )
    zero = config.get("zero_optimization")
    stage = zero.get("stage") if isinstance(zero, dict) else None
    if stage is not None and stage not in (0, 1, 2, 3):
        problems.append(f"zero_optimization.stage is {stage!r}; DeepSpeed knows 0, 1, 2 and 3")
    if _enabled(config, "bf16") and _enabled(config, "fp16"):
        problems.append("bf16 and fp16 are both enabled; DeepSpeed allows one")
    return problems


def _enabled(config: dict[str, Any], key: str) -> bool:
    section = config.get(key)
    return isinstance(section, dict) and section.get("enabled") is True


def given_config(spec: JobSpec) -> str | None:
    """The user's own config file: the plan's field, or the script's arguments' own
    `--deepspeed_config ds.json` (the command then names no second one, which argparse would
    take over the user's); None: the plan builds one."""
    if spec.deepspeed_config:
        return spec.deepspeed_config
    named = CONFIG_ARG.search(" ".join(spec.args))
    return named.group(1).strip("'\"") if named else None


def user_config_path(spec: JobSpec) -> Path | None:
    """Where the user's own config file is on this machine (it lives in the code folder)."""
    given = given_config(spec)
    if spec.framework != "deepspeed" or not given:
        return None
    return Path(spec.code or ".") / given


def user_config_problems(spec: JobSpec, world_size: int) -> list[str]:
    """What is wrong with the user's config file for this plan (one line each), if they gave one."""
    path = user_config_path(spec)
    if path is None:
        return []
    try:
        config = read_config(path)
    except ConfigProblem as err:
        return [f"deepspeed_config: {err}"]
    return [f"deepspeed_config: {path}: {problem}" for problem in check_config(config, world_size)]


BATCH_FIX = (
    "leave train_batch_size out (DeepSpeed computes it from the micro batch, the accumulation "
    "and the world size), or make it their product"
)


def refused_batch(config: dict[Any, Any], world: int) -> str | None:
    """Why DeepSpeed refuses the config's train_batch_size at `world` ranks, or None. Given
    with the micro batch alone, DeepSpeed derives the accumulation (it must divide); given
    with both, their product must equal it."""

    def number(key: str) -> int | None:
        value = config.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    total = number("train_batch_size")
    micro = number("train_micro_batch_size_per_gpu")
    steps = number("gradient_accumulation_steps")
    if total is None:
        return None
    if micro and steps:
        if micro * steps * world == total:
            return None
        return (
            f"train_batch_size {total} is not micro batch {micro} x accumulation {steps} x the "
            f"plan's {world} ranks = {micro * steps * world}: DeepSpeed refuses it at start-up"
        )
    per = micro or steps or 1
    if total % (per * world) == 0:
        return None
    return (
        f"train_batch_size {total} cannot be split over the plan's {world} ranks"
        + (f" x {'micro batch' if micro else 'accumulation'} {per}" if per > 1 else "")
        + ": DeepSpeed refuses it at start-up"
    )


def config_file_rules(plan: CheckPlan, name: str | None) -> Iterator[Finding]:
    """The DeepSpeed config file `name` (in the code folder) refused at the plan's world size."""
    if not name or plan.folder is None:
        return
    path = plan.folder / name
    try:
        config = read_config(path)
        text = path.read_text(encoding="utf-8")
    except (ConfigProblem, OSError, UnicodeDecodeError):
        return
    line = next(
        (i for i, row in enumerate(text.splitlines(), 1) if '"train_batch_size"' in row), None
    )
    problem = refused_batch(config, plan.world)
    if problem:
        yield Finding(line, f"{name}: {problem}", BATCH_FIX, "batch_not_divisible", "error", name)


def engine_config_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A DeepSpeed config file the script hands `deepspeed.initialize` itself (`config=` /
    `config_params=`, its path followed from the plan's command), under any plan: DeepSpeed
    checks its batch whoever launched the ranks."""
    if plan.flow is None:
        return
    said = {given_config(plan.spec)} if plan.spec.framework == "deepspeed" else set()
    for call in src.find("deepspeed.initialize"):
        for word in ("config", "config_params"):
            given = plan.flow.value_at(keyword(call, word)).value
            if isinstance(given, str) and given.endswith(".json") and given not in said:
                said.add(given)
                yield from config_file_rules(plan, given)
