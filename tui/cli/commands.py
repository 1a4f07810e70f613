"""`dtrain-tui`: the wizard with no sub-command; the same work without a UI as sub-commands.

This module parses the command line and holds the commands about a job's plan (`preview`,
`export`, `presets`, `edit`); `tui.cli.jobs` runs jobs (`submit`, `jobs`, `cancel`, `logs`) and
`tui.cli.inputs` reads what both take as input. Bad input exits 2 with one readable line on
stderr, never a traceback. Heavy modules are imported inside the command that needs them so
`--help` and the wizard start fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from tui.cli.check import add_parser as add_check_parser
from tui.cli.check import cmd_check
from tui.cli.doctor import add_parser as add_doctor_parser
from tui.cli.doctor import cmd_doctor
from tui.cli.inputs import (
    FRAMEWORKS,
    CliError,
    add_inputs,
    add_workspace,
    load_spec,
)
from tui.cli.jobs import LOG_BACKENDS, cmd_cancel, cmd_jobs, cmd_logs, cmd_submit
from tui.cli.metrics import add_parser as add_metrics_parser
from tui.cli.metrics import cmd_metrics
from tui.cli.reproduce import add_parser as add_reproduce_parser
from tui.cli.reproduce import cmd_reproduce
from tui.cli.serve import add_parser as add_serve_parser
from tui.cli.serve import cmd_serve
from tui.cli.stacks import add_parser as add_stacks_parser
from tui.cli.stacks import cmd_stacks
from tui.cli.start import guarded_run, need_terminal, wizard
from tui.command_name import hint
from tui.core.words import counted


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see `{self.prog} --help`)")


SHOW_CONFIG = "deepspeed"
"""`preview --show`'s name for the config file the job's command reads (the only framework that
has one gave it its name)."""


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
    add_inputs(p)
    p.add_argument(
        "--show",
        choices=("command", "env", "yaml", "sdk", "json", SHOW_CONFIG, "all"),
        default="command",
        help="what to show (default: command; deepspeed: the ds_config.json, as JSON)",
    )
    p.add_argument(
        "--offline",
        action="store_true",
        help="do not ask Azure's retail prices API (shows the cached or shipped prices)",
    )

    p = sub.add_parser("export", help="write the job as CLI v2 YAML, azure-ai-ml Python or JSON")
    add_inputs(p)
    p.add_argument("--format", choices=("yaml", "sdk", "json"), default="yaml")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="file to write, or -")
    p.add_argument("--force", action="store_true", help="replace PATH if it exists")

    p = sub.add_parser("edit", help="open an Azure ML job YAML in the wizard, at Review")
    p.add_argument("file", metavar="FILE", help="a command-job YAML (e.g. job.yml)")
    p.add_argument("--framework", choices=FRAMEWORKS, help="when the guess from the job is wrong")

    add_check_parser(sub)

    p = sub.add_parser("presets", help="list the presets, or show one")
    p.add_argument(
        "action",
        nargs="?",
        choices=("list", "show"),
        default="list",
        help="list: every preset with its line (default); show: one preset's plan and why",
    )
    p.add_argument("name", nargs="?", help="the preset to show (`dtrain-tui presets` lists them)")

    p = sub.add_parser(
        "submit", help="run a job: on this machine by default, on Azure ML with --target azureml"
    )
    add_inputs(p, target="local")
    p.add_argument(
        "--wait",
        action="store_true",
        help="follow rank 0's log until the job ends; exit 0 if it completed, 1 if not",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="--target local: start it even above the rehearsal limit (4 processes per core, "
        "at least 16)",
    )
    cluster = p.add_argument_group("a missing cluster (--target azure)")
    cluster.add_argument(
        "--create-compute",
        action="store_true",
        help="create the named cluster when it does not exist: the job's VM size, 0 to N nodes",
    )
    cluster.add_argument(
        "--low-priority",
        action="store_true",
        help="create it as low priority (cheaper; nodes can be taken back mid-job)",
    )
    cluster.add_argument(
        "--idle-minutes",
        type=int,
        default=30,
        metavar="N",
        help="idle minutes before its nodes scale down to 0 (default 30)",
    )
    add_workspace(p)
    p = sub.add_parser(
        "jobs",
        help="every job, here and on Azure ML, live on a terminal; a table when piped "
        "(local, or --target azure)",
    )
    p.add_argument("--no-ui", action="store_true", help="print the table even on a terminal")
    add_workspace(p, target=True)
    p = sub.add_parser("cancel", help="stop a job (local: and every process it started)")
    p.add_argument("name", metavar="NAME", help="the job's name (`dtrain-tui jobs` lists them)")
    add_workspace(p, target=True)

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
    add_workspace(p)
    add_metrics_parser(sub, tuple(LOG_BACKENDS), add_workspace)
    add_doctor_parser(sub, tuple(LOG_BACKENDS), add_workspace)
    add_stacks_parser(sub, tuple(LOG_BACKENDS), add_workspace)
    add_reproduce_parser(sub, add_workspace)
    add_serve_parser(sub)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"dtrain-tui {version('dtrain-tui')}"
    except PackageNotFoundError:
        return "dtrain-tui (not installed)"


def _plan(args: argparse.Namespace):
    from tui.planning.plan import Target, plan

    spec = load_spec(args)
    try:
        return plan(spec, Target.for_spec(args.target, spec))
    except ValueError as err:  # the local target could not reserve its ports
        raise CliError(str(err)) from None


# ---------------------------------------------------------------------------------------------
# Commands


def _console():
    from tui.cli.terminal import console

    return console()


def cmd_preview(args: argparse.Namespace) -> int:
    from tui.cli.render import print_plan
    from tui.frameworks import registry

    p = _plan(args)
    framework = registry.get(p.spec.framework)
    if not args.offline and p.target.kind == "azureml" and p.spec.sku:
        from tui.core.prices import refresh, refresh_due

        if refresh_due():  # at most a day old, else asked (3 s at most; said on stderr)
            print(refresh().message, file=sys.stderr)
    if args.show == SHOW_CONFIG:
        _print_config(p, framework)
    else:
        print_plan(p, args.show, _console())
    for problem in framework.user_config_problems(p.spec, p.world_size):
        print(f"warning: {problem}", file=sys.stderr)
    return 0


def _print_config(p, framework) -> None:
    """The config file the job will read: the generated one, or the user's file as it is."""
    if p.config_file is not None:
        sys.stdout.write(p.config_file.render())
        return
    try:
        text = framework.user_config_text(p.spec)
    except ValueError as err:
        raise CliError(str(err)) from None
    if text is None:
        from tui.frameworks import registry

        makers = [f for f in registry.frameworks() if f.config_title]
        why = (
            "its command is used as given"
            if framework in makers
            else f"framework is {p.spec.framework}; choose {' or '.join(f.name for f in makers)}"
        )
        raise CliError(f"--show {SHOW_CONFIG}: this job has no {makers[0].config_title} ({why})")
    from tui.cli.terminal import shown

    sys.stdout.write(shown(text))  # the user's own file: escapes shown escaped on a terminal


def cmd_export(args: argparse.Namespace) -> int:
    from tui.cli.terminal import shown
    from tui.core.files import PRIVATE, PUBLIC, atomic_file, holds_secrets, why
    from tui.planning.export import to_yaml, write_json
    from tui.planning.sdk import to_python

    p = _plan(args)
    if args.output == "-":
        out = _utf8_stdout()
        if args.format == "json":
            write_json(p, out)
        else:
            out.write({"yaml": to_yaml, "sdk": to_python}[args.format](p))
        out.flush()
        _warn(p.warnings)  # on stderr: stdout holds the job, and only the job
        return 0
    out = Path(args.output)
    if out.is_dir():
        raise CliError(f"{out}: is a folder; name the file to write, e.g. {out / 'job.yml'}")
    if out.exists() and not args.force:
        raise CliError(f"{out} exists; add --force to replace it")
    if not out.parent.is_dir():
        raise CliError(f"{out.parent}: no such folder; create it or choose another path")
    # The config first: a user's different ds_config.json stops the export before job.yml.
    config_path = _write_config_file(p, args.force) if p.config_file is not None else None
    mode = PRIVATE if holds_secrets(p.env_vars) else PUBLIC  # env values are written as they are
    try:  # a temporary file renamed over the old one: a full disk leaves the old file whole
        # Without --force the file is created, never replaced, even by an export that checked
        # at the same time as this one: of the two, one writes and the other says so.
        with atomic_file(out, mode, exclusive=not args.force) as f:
            if args.format == "json":
                write_json(p, f, out.parent)
            else:
                f.write({"yaml": to_yaml, "sdk": to_python}[args.format](p, out.parent))
    except FileExistsError:
        raise CliError(f"{out} exists; add --force to replace it") from None
    except OSError as err:
        raise CliError(
            f"{out}: cannot write it ({why(err)}); the old file, if any, is unchanged"
        ) from None
    shape = (
        f"{counted(p.spec.nodes, 'worker')} + {p.spec.parameter_servers} ps"  # tasks: no WORLD_SIZE
        if p.tasks
        else f"WORLD_SIZE {p.world_size}"
    )
    print(f"wrote {shown(out)} ({args.format}: {counted(p.instance_count, 'node')}, {shape})")
    if config_path is not None:
        print(f"wrote {shown(config_path)} (the {p.config_file.title} the command reads)")
    _warn(p.warnings)
    return 0


def _warn(warnings: tuple[str, ...]) -> None:
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)


class _Utf8Out:
    """stdout's bytes as a text stream that writes UTF-8 whatever stdout's encoding: an
    exported job is data, and `LANG=C` must not fold its `—ñ` into `-n` (stdout's own text
    layer, for people, gets ASCII stand-ins: `tui.cli.streams`). A file name's bytes that are
    not UTF-8 go out as they came in (surrogateescape), as on stdout's text layer."""

    def __init__(self, buffer) -> None:
        self._buffer = buffer

    def write(self, text: str) -> int:
        self._buffer.write(text.encode("utf-8", "surrogateescape"))
        return len(text)

    def flush(self) -> None:
        self._buffer.flush()


def _utf8_stdout():
    """Where `export -o -` writes: stdout as UTF-8 bytes, its failures `OutputError` as for
    any write to stdout; a stand-in with no bytes under it (`io.StringIO`) as it is."""
    from tui.cli.streams import GuardedOutput

    sys.stdout.flush()  # what is already written goes first
    buffer = getattr(sys.stdout, "buffer", None)
    return sys.stdout if buffer is None else GuardedOutput(_Utf8Out(buffer))


def _write_config_file(p, force: bool) -> Path:
    """The plan's config file into the job's code folder, where the command looks for it."""
    from tui.core.job_checks import is_remote
    from tui.core.plan_types import ConfigFileProblem

    code, config = p.spec.code or ".", p.config_file
    if is_remote(code):
        raise CliError(
            f"code: {code} is not on this machine, so {config.name} cannot be written into it; "
            f"export with a local code folder or point {config.field} at a file in it"
        )
    try:
        return config.write(Path(code), force)
    except ConfigFileProblem as err:
        raise CliError(str(err)) from None


def cmd_presets(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from tui.planning.plan import describe, plan
    from tui.planning.presets import PresetProblem, get_preset, load_presets

    console = _console()
    if args.action == "show":
        if not args.name:
            raise CliError(
                f"presets show: name the preset, e.g. `{hint('presets', 'show', 'pytorch-ddp')}`"
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
    return wizard(args.preset)


def cmd_edit(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from tui.core.answers import friendly
    from tui.planning.job_import import ImportProblem, load_job_file

    try:
        spec = load_job_file(args.file, args.framework)
    except ImportProblem as err:
        raise CliError(str(err)) from None
    except ValidationError as err:
        raise CliError(f"{args.file}: {friendly(err)}") from None
    need_terminal()
    from tui.app import run

    return run(spec, review=True, export_path=Path(args.file))


COMMANDS = {
    None: cmd_wizard,
    "preview": cmd_preview,
    "export": cmd_export,
    "presets": cmd_presets,
    "check": cmd_check,
    "edit": cmd_edit,
    "submit": cmd_submit,
    "jobs": cmd_jobs,
    "cancel": cmd_cancel,
    "logs": cmd_logs,
    "metrics": cmd_metrics,
    "doctor": cmd_doctor,
    "stacks": cmd_stacks,
    "reproduce": cmd_reproduce,
    "serve": cmd_serve,
}


def main(argv: list[str] | None = None) -> int:
    return guarded_run(lambda: _command(build_parser().parse_args(argv)))


def _command(args: argparse.Namespace) -> int:
    return COMMANDS[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
