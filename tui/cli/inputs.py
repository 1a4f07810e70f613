"""What the job commands take as input: a preset, a spec file or a job YAML, plus `--set`.

Shared by `tui.cli` (preview, export) and `tui.cli.jobs` (submit). `CliError` (from
`tui.cli.start`, where `main()` catches it) is here too, for the command modules to raise.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.start import CliError

if TYPE_CHECKING:
    from tui.core.spec import JobSpec

__all__ = ["CliError"]  # (with the names below)

OPTIONAL_KEYS = {
    "sku",
    "compute",
    "environment",
    "code",
    "command",
    "shm_size",
    "experiment",
    "display_name",
    "deepspeed_config",
    "zero_stage",
}
SET_KEYS = (
    "framework",
    "launch",
    "nodes",
    "gpus_per_node",
    "sku",
    "compute",
    "environment",
    "code",
    "script",
    "args",
    "command",
    "env.NAME",
    "shm_size",
    "parameter_servers",
    "experiment",
    "display_name",
    "zero_stage",
    "deepspeed_config",
    "deepspeed_via",
    "ds_micro_batch",
    "ds_grad_accum",
    "ds_offload",
    "ds_precision",
    "hf_launcher",
    "stacks",
)


FRAMEWORKS = ("pytorch", "lightning", "huggingface", "deepspeed", "tensorflow", "horovod")


def add_inputs(p: argparse.ArgumentParser, target: str = "azureml") -> None:
    """The inputs of a plan; `target` the `--target` a command takes when none is given."""
    src = p.add_mutually_exclusive_group()
    src.add_argument("--preset", metavar="NAME", help="start from a preset (`dtrain-tui presets`)")
    src.add_argument("--spec", metavar="FILE", help="start from a YAML/JSON file of spec fields")
    src.add_argument("--job", metavar="FILE", help="start from an Azure ML command-job YAML")
    p.add_argument(
        "--framework",
        choices=FRAMEWORKS,
        help="with --job: the framework, when the guess from the job is wrong",
    )
    p.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one field; keys: " + ", ".join(SET_KEYS) + ". An empty value clears it.",
    )
    p.add_argument(
        "--target",
        type=target_name,
        choices=("azureml", "local"),
        default=target,
        help="where the plan runs: "
        + (
            "an Azure ML cluster (default; or `azure`) or this machine"
            if target == "azureml"
            else "this machine (default) or an Azure ML cluster (`azureml` or `azure`)"
        ),
    )


def target_name(value: str) -> str:
    """`azure` is `azureml`: both name the Azure ML target."""
    return "azureml" if value == "azure" else value


def add_workspace(p: argparse.ArgumentParser, target: bool = False) -> None:
    """The Azure ML workspace flags (and `--target` for commands that default to local)."""
    if target:
        p.add_argument(
            "--target",
            type=target_name,
            choices=("local", "azureml"),
            default="local",
            help="where the jobs run: this machine (default) or Azure ML (`azure`)",
        )
    group = p.add_argument_group(
        "Azure ML workspace",
        "default: AZURE_SUBSCRIPTION_ID, AZURE_RESOURCE_GROUP and AZUREML_WORKSPACE_NAME, "
        "else the config.json in this folder, .azureml/ or a parent",
    )
    group.add_argument("--subscription", metavar="ID")
    group.add_argument("--resource-group", metavar="NAME")
    group.add_argument("--workspace", metavar="NAME")


def argv_text(text: str) -> str:
    """`text` (from argv) as the user typed it; ValueError saying why when its bytes are not
    UTF-8. Python hands such bytes on as lone surrogates, which no YAML, JSON or environment can
    hold; and in a locale that is not UTF-8 (`LC_ALL=C` without UTF-8 mode) it hands on *every*
    non-ASCII byte so, valid UTF-8 too: the bytes typed are recovered and read as UTF-8."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    raw = os.fsencode(text)  # the bytes of argv, whatever the locale decoded them as
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        at = len(raw[: err.start].decode("utf-8", "replace")) + 1
        raise ValueError(
            f"not valid UTF-8 (byte 0x{raw[err.start]:02x} at character {at})"
        ) from None


def apply_sets(spec: JobSpec, sets: list[str]) -> JobSpec:
    """`spec` with every `--set key=value` applied and validated as one change."""
    from pydantic import ValidationError

    from tui.core.answers import friendly, parse_args
    from tui.core.spec import JobSpec, switch_framework
    from tui.frameworks import registry  # noqa: F401 (gives the model the frameworks' rules)

    changes: dict[str, object] = {}
    env = dict(spec.env)
    for item in sets:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CliError(f"--set {item!r}: expected KEY=VALUE, e.g. --set nodes=4")
        try:  # argv bytes that are not UTF-8: no job file, JSON record or environment holds them
            key, value = argv_text(key), argv_text(value)
        except ValueError as err:
            raise CliError(f"--set {key}: {err}") from None
        if key.startswith("env."):
            env[key[4:]] = value
        elif key == "args":
            try:
                changes["args"] = parse_args(value)
            except ValueError as err:
                raise CliError(f"--set {err}") from None
        elif key in JobSpec.model_fields and key not in ("env", "passthrough", "resources_extra"):
            changes[key] = None if value == "" and key in OPTIONAL_KEYS else value
        else:
            raise CliError(f"--set {key}: unknown key; use one of {', '.join(SET_KEYS)}")
    if env != spec.env:
        changes["env"] = env
    try:
        if "framework" in changes:  # its usual launch mode unless --set launch says otherwise
            spec = switch_framework(spec, str(changes.pop("framework")))
        return spec.with_changes(**changes)
    except ValidationError as err:
        raise CliError(f"--set {friendly(err)}") from None


def load_spec(args: argparse.Namespace) -> JobSpec:
    """The spec the inputs describe: a preset, a spec file, a job YAML or the defaults, + --set."""
    from pydantic import ValidationError

    from tui.core.answers import friendly
    from tui.core.spec import JobSpec
    from tui.planning.job_import import ImportProblem, load_job_file
    from tui.planning.presets import PresetProblem, get_preset, spec_from_mapping

    if args.framework and not args.job:
        raise CliError("--framework: only with --job (a preset or spec file names its framework)")
    try:
        if args.preset:
            spec = get_preset(args.preset).spec
        elif args.spec:
            spec = spec_from_mapping(read_mapping(Path(args.spec)), str(args.spec))
        elif args.job:
            spec = load_job_file(args.job, args.framework)
        else:
            spec = JobSpec()
    except (PresetProblem, ImportProblem) as err:
        raise CliError(str(err)) from None
    except ValidationError as err:
        raise CliError(f"{args.job or args.spec}: {friendly(err)}") from None
    spec = apply_sets(spec, args.sets)
    if getattr(args, "target", None) == "local":  # as the wizard's "This machine": no VM size,
        spec = spec.with_changes(sku=None)  # so no price, no idle GPUs, no InfiniBand here
    return spec


def read_mapping(path: Path) -> object:
    """A spec file (YAML or JSON, which is YAML too), read as `tui.core.reading` reads input."""
    from tui.core.reading import InputProblem, read_yaml

    try:
        return read_yaml(path)
    except InputProblem as err:
        raise CliError(str(err)) from None
