"""`dtrain-tui`: the wizard with no sub-command; `preview`, `export`, `presets` without a UI.

Bad input exits 2 with one readable line on stderr, never a traceback. Heavy modules are
imported inside the command that needs them so `--help` and the wizard start fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from collections.abc import Callable

    from tui.core.spec import JobSpec

# `--set` keys that take None when given an empty value.
_OPTIONAL = {
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
_SET_KEYS = (
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
    "hf_launcher",
)


_FRAMEWORKS = ("pytorch", "lightning", "huggingface", "deepspeed", "tensorflow", "horovod")


class CliError(Exception):
    """A problem with what the user asked for: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see `{self.prog} --help`)")


def _add_inputs(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group()
    src.add_argument("--preset", metavar="NAME", help="start from a preset (`dtrain-tui presets`)")
    src.add_argument("--spec", metavar="FILE", help="start from a YAML/JSON file of spec fields")
    src.add_argument("--job", metavar="FILE", help="start from an Azure ML command-job YAML")
    p.add_argument(
        "--framework",
        choices=_FRAMEWORKS,
        help="with --job: the framework, when the guess from the job is wrong",
    )
    p.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one field; keys: " + ", ".join(_SET_KEYS) + ". An empty value clears it.",
    )
    p.add_argument(
        "--target",
        type=_target_name,
        choices=("azureml", "local"),
        default="azureml",
        help="where the plan runs: an Azure ML cluster (default; or `azure`) or this machine",
    )


def _target_name(value: str) -> str:
    """`azure` is `azureml`: both name the Azure ML target."""
    return "azureml" if value == "azure" else value


def _add_workspace(p: argparse.ArgumentParser, target: bool = False) -> None:
    """The Azure ML workspace flags (and `--target` for commands that default to local)."""
    if target:
        p.add_argument(
            "--target",
            type=_target_name,
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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dtrain-tui",
        description="From a training script to a distributed Azure ML job and its live log. "
        "With no command, opens the wizard.",
    )
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument("--preset", metavar="NAME", help="open the wizard at Review with a preset")
    sub = parser.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("preview", help="show what a job will run: commands, env per rank, YAML")
    _add_inputs(p)
    p.add_argument(
        "--show",
        choices=("command", "env", "yaml", "sdk", "json", "all"),
        default="command",
        help="what to show (default: command)",
    )

    p = sub.add_parser("export", help="write the job as CLI v2 YAML, azure-ai-ml Python or JSON")
    _add_inputs(p)
    p.add_argument("--format", choices=("yaml", "sdk", "json"), default="yaml")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="file to write, or -")
    p.add_argument("--force", action="store_true", help="replace PATH if it exists")

    p = sub.add_parser("edit", help="open an Azure ML job YAML in the wizard, at Review")
    p.add_argument("file", metavar="FILE", help="a command-job YAML (e.g. job.yml)")
    p.add_argument("--framework", choices=_FRAMEWORKS, help="when the guess from the job is wrong")

    p = sub.add_parser("presets", help="list the presets, or show one")
    p.add_argument("action", nargs="?", choices=("list", "show"), default="list")
    p.add_argument("name", nargs="?")

    p = sub.add_parser("submit", help="run a job; --target local rehearses it on this machine")
    _add_inputs(p)
    p.set_defaults(target="local")
    p.add_argument(
        "--wait",
        action="store_true",
        help="follow rank 0's log until the job ends; exit 0 if it completed, 1 if not",
    )
    _add_workspace(p)
    p = sub.add_parser("jobs", help="list jobs and their status (local, or --target azure)")
    _add_workspace(p, target=True)
    p = sub.add_parser("cancel", help="stop a job (local: and every process it started)")
    p.add_argument("name", metavar="NAME", help="the job's name (`dtrain-tui jobs` lists them)")
    _add_workspace(p, target=True)

    p = sub.add_parser(
        "logs",
        help="a job's log: the live job screen on a terminal, plain text when piped",
    )
    p.add_argument("name", metavar="NAME", help="the job's name (`dtrain-tui jobs` lists them)")
    p.add_argument("--rank", type=int, metavar="N", help="whose log (default: rank 0's)")
    p.add_argument(
        "--follow",
        action="store_true",
        help="without a UI: keep writing until the job ends; exit 0 if it completed, 1 if not",
    )
    p.add_argument(
        "--target",
        choices=tuple(LOG_BACKENDS),
        default="local",
        help="where the job runs (default: this machine)",
    )
    p.add_argument("--no-ui", action="store_true", help="write plain text even on a terminal")
    _add_workspace(p)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"dtrain-tui {version('dtrain-tui')}"
    except PackageNotFoundError:
        return "dtrain-tui (not installed)"


# ---------------------------------------------------------------------------------------------
# Inputs


def apply_sets(spec: JobSpec, sets: list[str]) -> JobSpec:
    """`spec` with every `--set key=value` applied and validated as one change."""
    from pydantic import ValidationError

    from tui.core.spec import JobSpec, friendly, parse_args, switch_framework

    changes: dict[str, object] = {}
    env = dict(spec.env)
    for item in sets:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CliError(f"--set {item!r}: expected KEY=VALUE, e.g. --set nodes=4")
        if key.startswith("env."):
            env[key[4:]] = value
        elif key == "args":
            try:
                changes["args"] = parse_args(value)
            except ValueError as err:
                raise CliError(f"--set {err}") from None
        elif key in JobSpec.model_fields and key not in ("env", "passthrough", "resources_extra"):
            changes[key] = None if value == "" and key in _OPTIONAL else value
        else:
            raise CliError(f"--set {key}: unknown key; use one of {', '.join(_SET_KEYS)}")
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

    from tui.core.export import ImportProblem, load_job_file
    from tui.core.presets import PresetProblem, get_preset, spec_from_mapping
    from tui.core.spec import JobSpec, friendly

    if args.framework and not args.job:
        raise CliError("--framework: only with --job (a preset or spec file names its framework)")
    try:
        if args.preset:
            spec = get_preset(args.preset).spec
        elif args.spec:
            spec = spec_from_mapping(_read_mapping(Path(args.spec)), str(args.spec))
        elif args.job:
            spec = load_job_file(args.job, args.framework)
        else:
            spec = JobSpec()
    except (PresetProblem, ImportProblem) as err:
        raise CliError(str(err)) from None
    except ValidationError as err:
        raise CliError(f"{args.job or args.spec}: {friendly(err)}") from None
    return apply_sets(spec, args.sets)


def _read_mapping(path: Path) -> object:
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))  # JSON is YAML too
    except OSError as err:
        raise CliError(f"{path}: cannot read it ({err.strerror})") from None
    except yaml.YAMLError:
        raise CliError(f"{path}: not valid YAML or JSON") from None


def _plan(args: argparse.Namespace):
    from tui.core.plan import Target, plan

    spec = load_spec(args)
    return plan(spec, Target.for_spec(args.target, spec))


# ---------------------------------------------------------------------------------------------
# Commands


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def cmd_preview(args: argparse.Namespace) -> int:
    from tui.render import print_plan

    print_plan(_plan(args), args.show, _console())
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from tui.core.export import to_json, to_yaml
    from tui.core.sdk import to_python

    p = _plan(args)
    render = {"yaml": to_yaml, "sdk": to_python, "json": to_json}[args.format]
    if args.output == "-":
        sys.stdout.write(render(p))
        return 0
    out = Path(args.output)
    if out.exists() and not args.force:
        raise CliError(f"{out} exists; add --force to replace it")
    if not out.parent.is_dir():
        raise CliError(f"{out.parent}: no such folder; create it or choose another path")
    out.write_text(render(p, out.parent), encoding="utf-8")
    print(f"wrote {out} ({args.format}: {p.instance_count} nodes, WORLD_SIZE {p.world_size})")
    for w in p.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return 0


def cmd_presets(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from tui.core.plan import describe, plan
    from tui.core.presets import PresetProblem, get_preset, load_presets

    console = _console()
    if args.action == "show":
        if not args.name:
            raise CliError(
                "presets show: name the preset, e.g. `dtrain-tui presets show pytorch-ddp`"
            )
        try:
            preset = get_preset(args.name)
        except PresetProblem as err:
            raise CliError(str(err)) from None
        console.print(
            f"[bold]{preset.name}[/]: {escape(preset.title)}  "
            f"[dim]({preset.source}, {escape(str(preset.path))})[/]"
        )
        console.print(escape(preset.note))
        console.print(describe(plan(preset.spec)), style="dim")
        return 0
    presets, problems = load_presets()
    width = max((len(p.name) for p in presets), default=4)
    console.print(f"[bold]{'name':<{width}}  {'from':<7}  what it shows[/]")
    for p in presets:
        console.print(f"[bold]{p.name:<{width}}[/]  {p.source:<7}  {escape(p.title)}")
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    return 0


def cmd_wizard(args: argparse.Namespace) -> int:
    from tui.core.presets import PresetProblem, get_preset

    spec = None
    if args.preset:
        try:
            spec = get_preset(args.preset).spec
        except PresetProblem as err:
            raise CliError(str(err)) from None
    from tui.app import run

    return run(spec, review=spec is not None)


def cmd_edit(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from tui.core.export import ImportProblem, load_job_file
    from tui.core.spec import friendly

    try:
        spec = load_job_file(args.file, args.framework)
    except ImportProblem as err:
        raise CliError(str(err)) from None
    except ValidationError as err:
        raise CliError(f"{args.file}: {friendly(err)}") from None
    from tui.app import run

    return run(spec, review=True, export_path=Path(args.file))


# ---------------------------------------------------------------------------------------------
# Running jobs (the local backend; Azure ML submission plugs in here)


def cmd_submit(args: argparse.Namespace) -> int:
    from tui.backends.base import BackendError
    from tui.backends.local import LocalBackend
    from tui.core.plan import Target, plan

    if args.target == "azureml":
        from tui.cli_azure import submit
        from tui.core.plan import AZUREML

        return _on_azure(submit, args, plan(load_spec(args), AZUREML), _write_log)
    spec = load_spec(args)
    p = plan(spec, Target.for_spec("local", spec))
    try:
        # Without --wait the job outlives this command, as a cloud job would.
        backend = LocalBackend(detach=not args.wait)
        job = backend.submit(p)
    except BackendError as err:
        raise CliError(str(err)) from None
    print(job.name, flush=True)
    print(f"logs: {Path(job.location, 'user_logs')} (rank 0: {p.ranks[0].log_file})", flush=True)
    for w in p.warnings:
        print(f"warning: {w}", file=sys.stderr)
    if not args.wait:
        print(f"status: dtrain-tui jobs · stop: dtrain-tui cancel {job.name}")
        return 0
    return _follow(backend, job, Path(job.location, p.ranks[0].log_file))


def _follow(backend, job, log: Path) -> int:
    """Copy `log` to stdout as it grows until the job ends; Ctrl-C cancels the job."""
    import time

    from tui.backends.base import JobState

    offset = 0
    out = sys.stdout.buffer
    try:
        while True:
            status = backend.status(job)  # before reading: once it is final, so is the log
            try:
                with log.open("rb") as f:
                    f.seek(offset)
                    data = f.read()
            except FileNotFoundError:
                data = b""
            if data:
                out.write(data)
                out.flush()
                offset += len(data)
            if status.is_terminal:
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        backend.cancel(job)
        print(f"\njob {job.name}: canceled", file=sys.stderr)
        return 130
    print(f"job {job.name}: {status.summary()}", file=sys.stderr)
    if status.failed_rank not in (None, 0) and status.last_lines:
        print(f"last lines of {status.failed_log}:", file=sys.stderr)
        for line in status.last_lines:
            print(f"  {line}", file=sys.stderr)
    return 0 if status.state is JobState.COMPLETED else 1


def cmd_jobs(args: argparse.Namespace) -> int:
    from tui.backends.local import LocalBackend

    if args.target == "azureml":
        from tui.cli_azure import jobs

        return _on_azure(jobs, args)

    backend = LocalBackend(detach=True)
    jobs = backend.jobs()
    if not jobs:
        print(f"no local jobs in {backend.root}; `dtrain-tui submit --preset NAME` starts one")
        return 0
    rows = [("NAME", "STATUS", "CREATED", "TOOK", "WHAT")]
    for job in jobs:
        status = backend.status(job)
        created = status.created_at.astimezone() if status.created_at else None
        took = f"{status.duration:.1f} s" if status.duration is not None else ""
        when = created.strftime("%Y-%m-%d %H:%M:%S") if created else ""
        rows.append((job.name, status.summary(), when, took, backend.info(job).get("summary", "")))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)), row[4])
    return 0


def cmd_cancel(args: argparse.Namespace) -> int:
    from tui.backends.base import BackendError
    from tui.backends.local import LocalBackend

    if args.target == "azureml":
        from tui.cli_azure import cancel

        return _on_azure(cancel, args)

    backend = LocalBackend(detach=True)
    try:
        job = backend.handle(args.name)
        before = backend.status(job)
        if before.is_terminal:
            print(f"{job.name} had already ended: {before.summary()}")
            return 0
        backend.cancel(job)
    except BackendError as err:
        raise CliError(str(err)) from None
    print(f"{job.name}: {backend.status(job).summary()}")
    return 0


def _on_azure(command: Callable[..., int], *args: Any) -> int:
    """Run an Azure ML command of `tui.cli_azure`; its BackendError is our one-line error."""
    from tui.backends.base import BackendError

    try:
        return command(*args)
    except BackendError as err:
        raise CliError(str(err)) from None


def _local_backend(args: argparse.Namespace | None = None):
    from tui.backends.local import LocalBackend

    return LocalBackend(detach=True)


def _azure_backend(args: argparse.Namespace):
    from tui.cli_azure import backend

    return backend(args)


LOG_BACKENDS: dict[str, Callable[[argparse.Namespace], Any] | None] = {
    "local": _local_backend,
    "azure": _azure_backend,
    "azureml": _azure_backend,
}
"""Backend factories by `--target` name (given the command's arguments)."""


def cmd_logs(args: argparse.Namespace) -> int:
    from tui.backends.base import BackendError
    from tui.logs.names import log_for_rank, rank_logs

    factory = LOG_BACKENDS[args.target]
    if factory is None:
        raise CliError(f"--target {args.target}: following Azure ML jobs is not available yet")
    backend = factory(args)
    try:
        job = backend.handle(args.name)
        sources = backend.log_sources(job)
    except BackendError as err:
        raise CliError(str(err)) from None
    rank = 0 if args.rank is None else args.rank
    name = log_for_rank(sources, rank)
    ranks = [r.rank for r in rank_logs(sources)]
    if name is None and ranks:
        raise CliError(f"job {job.name} has no log for rank {rank} (ranks {ranks[0]}-{ranks[-1]})")
    ui = sys.stdout.isatty() and not args.no_ui
    if name is None and (ui or args.follow):
        # A queued cloud job has no logs yet: the screen waits for them, and so does --follow.
        if backend.status(job).is_terminal:
            raise CliError(f"job {job.name} has ended without writing a log for rank {rank}")
        if not ui:
            name, sources = _wait_for_log(backend, job, rank)
    if ui:
        from tui.app import run_job

        # Without --rank the screen may switch to the rank that failed, as after Submit.
        return run_job(backend, job, None if args.rank is None else name)
    if name is None:
        print(f"job {job.name} has no log for rank {rank} yet", file=sys.stderr)
        return 0
    return _write_log(backend, job, sources[name], follow=args.follow)


def _wait_for_log(backend, job, rank: int, poll: float = 2.0):
    """Wait until the job lists rank `rank`'s log; (its name, the sources). Ends with the job."""
    import time

    from tui.logs.names import log_for_rank

    while True:
        time.sleep(poll)
        sources = backend.log_sources(job)
        name = log_for_rank(sources, rank)
        if name is not None:
            return name, sources
        if backend.status(job).is_terminal:
            raise CliError(f"job {job.name} has ended without writing a log for rank {rank}")


def _write_log(backend, job, source, follow: bool) -> int:
    """Write the log's lines to stdout: what is there now, or (`follow`) until the job ends."""
    import asyncio

    from tui.backends.base import JobState
    from tui.logs.follower import LogFollower

    async def job_ended() -> bool:
        return (await asyncio.to_thread(backend.status, job)).is_terminal

    async def copy() -> str | None:
        follower = LogFollower(source, done=job_ended if follow else (lambda: True))
        out = getattr(sys.stdout, "buffer", None)
        async for update in follower:
            if update.lines:
                text = "\n".join(update.lines) + "\n"
                if out is not None:
                    out.write(text.encode("utf-8", "replace"))
                    out.flush()
                else:
                    sys.stdout.write(text)
                    sys.stdout.flush()
        return follower.state.last_error if follower.state.phase == "failed" else None

    error = asyncio.run(copy())
    if error:
        print(f"dtrain-tui: reading {source.name} failed: {error}", file=sys.stderr)
        return 1
    if not follow:
        return 0
    status = backend.status(job)
    print(f"job {job.name}: {status.summary()}", file=sys.stderr)
    return 0 if status.state is JobState.COMPLETED else 1


COMMANDS = {
    None: cmd_wizard,
    "preview": cmd_preview,
    "export": cmd_export,
    "presets": cmd_presets,
    "edit": cmd_edit,
    "submit": cmd_submit,
    "jobs": cmd_jobs,
    "cancel": cmd_cancel,
    "logs": cmd_logs,
}


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.cmd](args)
    except CliError as err:
        print(f"dtrain-tui: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `dtrain-tui preview --show env | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
