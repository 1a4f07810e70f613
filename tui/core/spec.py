"""`JobSpec`: what the user chose, frozen, with every rule that makes a distributed job sane.

Rules live here once; the wizard, the CLI and the tests all get the same message text. Every
message names the field and says how to fix it. Cross-field rules raise `PydanticCustomError`
with the field in its context, so `friendly()` and `error_field()` can point at it.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tui.core import framework_list
from tui.core.catalog import Sku, find_sku, skus
from tui.core.framework_list import LISTED

LaunchMode = Literal["per_process", "per_node", "single"]

FRAMEWORKS: dict[str, str] = {name: title for name, title, _ in LISTED}
"""Every framework's name → its title, in the wizard's order (plain data: the model sits below
the frameworks and imports none of them)."""
LAUNCH_MODES: dict[str, str] = {
    "per_process": "per-process: Azure ML starts one process per GPU",
    "per_node": "per-node: Azure ML starts one launcher per node, the launcher starts the rest",
    "single": "not distributed: Azure ML starts one process on each node and sets no rank "
    "variables (the job has no distribution:)",
}

# Job fields the wizard does not model; imported YAML keeps them and exports them unchanged.
PASSTHROUGH_KEYS = (
    "name",
    "description",
    "inputs",
    "outputs",
    "services",
    "identity",
    "limits",
    "queue_settings",
    "tags",
    "properties",
)

# Upper bounds on counts, so that no number typed makes the app build (or print) more than a
# real job could have. Azure ML's own limits ("Manage and increase quotas and limits for
# resources with Azure Machine Learning", learn.microsoft.com/azure/machine-learning/
# how-to-manage-quotas, "Azure Machine Learning compute" limits table): a compute cluster set up
# as a communication-enabled pool, which multi-node training needs, has 300 nodes by default,
# "configurable up to 4,000 nodes". Azure ML documents no cap on process_count_per_instance: it
# is one process per GPU (no Azure GPU size has more than 8) or per core for CPU jobs, and the
# largest Azure VM size has 1,792 vCPUs (Standard_M1792ixds_32_v3).
MAX_NODES = 4000
MAX_PROCESSES_PER_NODE = 1792

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SHM_SIZE = re.compile(r"[1-9][0-9]*[bkmgBKMG]\Z")  # Docker and azure-ai-ml take either case


_NODES_WHY = "the most Azure ML allows in one cluster that can run distributed jobs (300 by \
default, configurable up to 4,000)"
SCRIPT_FIX = "Azure ML uploads only the code folder; move the script into it or make Code \
folder the folder the script is in"


def _rule(field: str, message: str) -> PydanticCustomError:
    return PydanticCustomError(
        "job_rule", "{field}: {message}", {"field": field, "message": message}
    )


class FrameworkRules(Protocol):
    """What the model asks of a framework to validate a job: each `tui.frameworks` module's
    `Framework` has these; `tui.frameworks.registry` hands them over as it loads
    (`framework_list.use_frameworks`)."""

    name: str
    default_launch: str
    options: dict[str, Any]
    """The job fields only this framework uses, with the values they have elsewhere."""
    option_rule: str

    def launch_problem(self, launch: str) -> str | None: ...
    def problems(self, spec: JobSpec) -> list[tuple[str, str]]: ...
    def submit_problems(self, spec: JobSpec) -> list[str]: ...
    def tasks_with_ports(self, spec: JobSpec) -> int: ...


def framework_rules(framework: str) -> FrameworkRules:
    """The rules of the framework called `framework` (RuntimeError before the registry loads)."""
    return framework_list.framework_rules(framework)


def known_frameworks() -> tuple[FrameworkRules, ...]:
    return framework_list.known_frameworks()


def launch_mode_problem(framework: str, launch: str) -> str | None:
    """Why `launch` does not fit `framework`, or None when it does.

    The wizard shows this beside a disabled choice rather than hiding it: knowing why a mode
    does not fit is part of learning distributed training.
    """
    if framework not in FRAMEWORKS:
        return None  # the framework field itself is refused, with its own message
    return framework_rules(framework).launch_problem(launch)


class JobSpec(BaseModel):
    """What the user asked for. Frozen: change it with `with_changes`, which validates."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    framework: str = "pytorch"
    """A name in `FRAMEWORKS`."""
    launch: LaunchMode = "per_process"
    nodes: int = 2
    """Nodes that run workers. TensorFlow parameter servers get nodes of their own on top."""
    gpus_per_node: int = 8
    sku: str | None = "Standard_ND96asr_v4"
    compute: str | None = "gpu-cluster"
    """The cluster's name; None leaves it out of the job (serverless compute)."""
    environment: str | dict[str, Any] | None = None
    """None means the curated default for the framework (the plan shows which)."""
    code: str | None = "."
    script: str = "train.py"
    args: tuple[str, ...] = ()
    """Script arguments exactly as the script should receive them; quoted when rendered."""
    command: str | None = None
    """A full command used verbatim instead of script + args (imported jobs, expert use)."""
    env: dict[str, str] = {}
    shm_size: str | None = "16g"
    experiment: str | None = None
    display_name: str | None = None
    parameter_servers: int = 0
    deepspeed_config: str | None = None
    zero_stage: int | None = None
    deepspeed_via: Literal["pytorch", "mpi"] = "pytorch"
    ds_micro_batch: int = 4
    """DeepSpeed's train_micro_batch_size_per_gpu for the generated ds_config.json."""
    ds_grad_accum: int = 1
    """DeepSpeed's gradient_accumulation_steps for the generated ds_config.json."""
    ds_offload: Literal["none", "cpu", "nvme"] = "none"
    """ZeRO offload of optimizer states (and, at stage 3, parameters)."""
    ds_precision: Literal["auto", "bf16", "fp16", "fp32"] = "auto"
    """auto: bf16 where the GPU has it (Ampere and newer), else fp16."""
    hf_launcher: Literal["accelerate", "torchrun"] = "accelerate"
    stacks: int = Field(10, ge=0, le=10080)
    """Minutes in one place before a rank prints its stacks; 0: no dumper (`core.stacks_env`)."""
    passthrough: dict[str, Any] = {}
    """Job fields the wizard does not model (inputs, outputs, services, identity, …)."""
    resources_extra: dict[str, Any] = {}
    """`resources:` keys other than instance_count and shm_size (docker_args, instance_type, …)."""
    as_written: dict[str, Any] = {}
    """An imported file's own `distribution` and `resources.instance_count` (None: absent) and
    the `shape` they were read as; the export writes them back as written while the shape is
    unchanged, so a job nobody edited is the same job (`tui.planning.export.job_dict`)."""

    # ---- single-field rules -------------------------------------------------------------

    @field_validator("framework")
    @classmethod
    def _framework(cls, v: str) -> str:
        if v not in FRAMEWORKS:
            *first, last = (repr(name) for name in FRAMEWORKS)
            known = f"{', '.join(first)} or {last}"
            raise _rule("framework", f"{v!r} is not one of {known}")
        return v

    @field_validator("nodes")
    @classmethod
    def _nodes(cls, v: int) -> int:
        if v < 1:
            raise _rule("nodes", f"must be at least 1, got {v}; a job runs on one node or more")
        if v > MAX_NODES:
            raise _rule("nodes", f"{v} is more than {MAX_NODES:,}, {_NODES_WHY}")
        return v

    @field_validator("gpus_per_node")
    @classmethod
    def _gpus(cls, v: int) -> int:
        if v < 1:
            raise _rule("gpus_per_node", f"must be at least 1, got {v}")
        if v > MAX_PROCESSES_PER_NODE:
            raise _rule(
                "gpus_per_node",
                f"{v} is more than {MAX_PROCESSES_PER_NODE:,}, the most processes a node can "
                "run (one per GPU, at most 8 on Azure; or one per core, at most 1,792 on the "
                "largest Azure VM)",
            )
        return v

    @field_validator("ds_micro_batch", "ds_grad_accum")
    @classmethod
    def _ds_counts(cls, v: int, info: ValidationInfo) -> int:
        if not 1 <= v <= 65536:
            raise _rule(info.field_name, f"must be between 1 and 65536, got {v}")
        return v

    @field_validator("parameter_servers")
    @classmethod
    def _ps(cls, v: int) -> int:
        if v < 0:
            raise _rule("parameter_servers", f"must be 0 or more, got {v}")
        if v > MAX_NODES:
            raise _rule("parameter_servers", f"{v} is more than {MAX_NODES:,}, {_NODES_WHY}")
        return v

    @field_validator("zero_stage")
    @classmethod
    def _zero(cls, v: int | None) -> int | None:
        if v is not None and v not in (0, 1, 2, 3):
            raise _rule("zero_stage", f"must be 0, 1, 2 or 3, got {v}")
        return v

    @field_validator("env")
    @classmethod
    def _env(cls, v: dict[str, str]) -> dict[str, str]:
        for name, value in v.items():
            if not _ENV_NAME.match(name):
                raise _rule(
                    f"env.{name}",
                    f"{name!r} is not a valid variable name; use letters, digits and _ "
                    "and do not start with a digit (e.g. NCCL_DEBUG)",
                )
            if "\0" in str(value):
                raise _rule(f"env.{name}", "value must not contain a NUL byte")
        return {k: str(val) for k, val in v.items()}

    @field_validator("shm_size")
    @classmethod
    def _shm(cls, v: str | None) -> str | None:
        if v is not None and not _SHM_SIZE.match(v):
            raise _rule(
                "shm_size",
                f"{v!r} is not a size; write a number and a unit b, k, m or g, like 16g",
            )
        return v

    @field_validator("script")
    @classmethod
    def _script(cls, v: str) -> str:
        if not v.strip():
            raise _rule("script", "is empty; name the file to run, e.g. train.py")
        if not Path(v).is_absolute() and os.path.normpath(v).split(os.sep)[0] == "..":
            raise _rule("script", f"{v} is outside the code folder; {SCRIPT_FIX}")
        return v

    @field_validator("compute")
    @classmethod
    def _compute(cls, v: str | None) -> str | None:
        # A placeholder such as '<your compute name>' (official examples have them) is kept:
        # azure-ai-ml reads it, the plan warns, and only `submit` refuses it (submit_problems).
        if v is not None and (not v.strip() or any(c in v for c in "\n\r\t\0")):
            raise _rule("compute", f"{v!r} is not a compute name; use the cluster's name")
        return v

    @field_validator("command")
    @classmethod
    def _command(cls, v: str | None) -> str | None:
        if v is not None and not v.strip():
            return None
        return v

    # ---- cross-field rules --------------------------------------------------------------

    @model_validator(mode="after")
    def _rules(self) -> JobSpec:
        problem = launch_mode_problem(self.framework, self.launch)
        if problem:
            raise _rule("launch", problem)
        if self.nodes + self.parameter_servers > MAX_NODES:
            raise _rule(
                "parameter_servers",
                f"nodes {self.nodes} + parameter servers {self.parameter_servers} is more than "
                f"{MAX_NODES:,} nodes, {_NODES_WHY}",
            )
        sku = find_sku(self.sku) if self.sku else None
        if sku and self.gpus_per_node > sku.gpus:
            raise _rule("gpus_per_node", _too_many_gpus(sku, self.nodes, self.gpus_per_node))
        for other in known_frameworks():  # another framework's options left set
            if other.name == self.framework:
                continue
            for field in reversed(other.options):  # the last named is the one said
                if getattr(self, field) != other.options[field]:
                    raise _rule(field, other.option_rule)
        for field, message in framework_rules(self.framework).problems(self):
            raise _rule(field, message)
        return self

    # ---- updates ------------------------------------------------------------------------

    def with_changes(self, **changes: Any) -> JobSpec:
        """A validated copy with `changes` applied (`model_copy(update=)` would not validate)."""
        data = self.model_dump() | changes
        if self.display_name and "display_name" not in changes:  # `x-2x8` follows the counts
            from tui.core.words import follow_shape

            was, now = (self.nodes, self.gpus_per_node), (data["nodes"], data["gpus_per_node"])
            data["display_name"] = follow_shape(self.display_name, was, now)
        return JobSpec.model_validate(data)

    @property
    def instances(self) -> int:
        """Nodes the job runs on: its workers, and parameter servers where there are any."""
        return self.nodes + self.parameter_servers

    @property
    def tasks_with_ports(self) -> int:
        """Processes that each need a port of their own on this machine."""
        return framework_rules(self.framework).tasks_with_ports(self)

    @property
    def shape(self) -> list[Any]:
        """What a job's distribution and instance_count are derived from."""
        return [self.launch, self.nodes, self.gpus_per_node, self.parameter_servers]

    @property
    def script_command(self) -> str:
        """`script` and `args`, quoted so every argument reaches the script exactly as typed."""
        return shlex.join([self.script, *self.args])


def switch_framework(spec: JobSpec, framework: str) -> JobSpec:
    """`spec` for another framework: the framework's usual launch mode, and options that only
    the old framework had cleared, so a valid spec stays valid."""
    if framework == spec.framework:
        return spec
    if framework not in FRAMEWORKS:
        return spec.with_changes(framework=framework)  # refused, naming the field
    launch = spec.launch if launch_mode_problem(framework, spec.launch) is None else None
    changes: dict[str, Any] = {
        "framework": framework,
        "launch": launch or framework_rules(framework).default_launch,
    }
    for other in known_frameworks():
        if other.name != framework:
            changes |= other.options
    if isinstance(spec.environment, str) and "azureml:AzureML-" in spec.environment:
        changes["environment"] = None  # a curated image for the old framework: use the new default
    return spec.with_changes(**changes)


def _too_many_gpus(sku: Sku, nodes: int, gpus: int) -> str:
    """Why `gpus` per node does not fit `sku`, and a fix that exists in the table."""
    plural = "s" if sku.gpus != 1 else ""
    bigger = sorted(
        (s for s in skus() if s.gpus >= gpus and not s.retired and s.vendor == sku.vendor),
        key=lambda s: (s.gpus, s.name),
    )
    total = nodes * gpus
    more_nodes = -(-total // sku.gpus)  # ceiling: enough nodes for as many GPUs or more
    fixes = [f"set GPUs per node to {sku.gpus} or fewer"]
    if bigger:
        fixes.append(f"choose a size with {gpus} or more GPUs such as {bigger[0].name}")
    else:
        most = max(s.gpus for s in skus())
        fixes.append(
            f"for {total} GPUs use more nodes: {more_nodes} node{'s' if more_nodes != 1 else ''}"
            f" × {sku.gpus} (no listed size has more than {most} GPUs per node)"
        )
    return f"{sku.name} has {sku.gpus} GPU{plural} per node, not {gpus}; " + ", or ".join(fixes)
