"""`dtrain-tui check [SCRIPT] [inputs]`: what the training script lacks for its distributed plan.

SCRIPT is what people type (`check train.py`, `check src/train.py`): the script, with its own
folder as the code folder unless the inputs name one that holds it (then its path inside it).

Reads the script with `ast` (never imports or runs it), with the modules of its code folder it
imports, tries the plan's arguments on its command-line parser, and prints each finding with
its line and fix (`--json`: a list of {file, line, rule, severity, message, fix}). Exit 0 when
clean, 1 with findings (advice, never a block), 2 on bad input (no such script, not a regular
file, over 1 MB, not UTF-8, not valid Python): one line, no traceback.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tui.cli.inputs import CliError, add_inputs, load_spec
from tui.core.words import counted


def add_parser(sub) -> None:
    """Register `check` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "check",
        help="read the training script (never run) and say what it lacks for this plan",
    )
    p.add_argument(
        "path",
        nargs="?",
        metavar="SCRIPT",
        help="the training script (FOLDER/SCRIPT: FOLDER is the code folder); "
        "the same as --set code=FOLDER --set script=SCRIPT",
    )
    add_inputs(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print the findings as a JSON list of {file, line, rule, severity, message, fix}",
    )


def cmd_check(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from tui.cli.terminal import console as terminal_console
    from tui.core.job_checks import is_remote
    from tui.planning.script_check import ScriptProblem, check_file

    named_code = bool(args.preset or args.spec or args.job) or any(
        s.strip().startswith("code=") for s in args.sets
    )
    spec = _with_script(load_spec(args), args.path, named_code)
    if spec.command is not None and args.path is None:
        raise CliError("check: this job runs a full command; name its script: check SCRIPT")
    if spec.code is not None and is_remote(spec.code):
        raise CliError(f"check: code {spec.code} is not on this machine")
    folder = Path(spec.code or ".")
    path = folder / spec.script
    try:
        report = check_file(path, spec, _gpus(args.target), folder, name=str(path))
    except ScriptProblem as err:
        raise CliError(f"check: {err}") from None
    if args.json:
        print(json.dumps([f.as_json() for f in report.findings], indent=2))
        return 1 if report.findings else 0
    console = terminal_console()
    shape = f"{spec.framework}, {spec.launch.replace('_', '-')}, {counted(spec.nodes, 'node')}"
    console.print(f"[bold]{escape(str(path))}[/] for {shape}:")
    for f in report.findings:
        where = f"line {f.line}" if f.line else "missing"
        if f.file and f.file != str(path):  # in a helper module of the code folder
            where = f"{f.file}:{f.line}" if f.line else f.file
        console.print(f"  [yellow]⚠[/] {where}: {escape(f.what)}")
        console.print(f"      fix: {escape(f.fix)}")
    for note in report.notes:
        console.print(f"  [green]✓[/] {escape(note)}")
    return 1 if report.findings else 0


def _with_script(spec, path: str | None, named_code: bool):
    """`spec` checking the script at `path` as typed: inside a code folder the inputs name, its
    path there; else the script's own folder is the code folder (Azure ML uploads it, and the
    script's imports resolve there as `python FOLDER/SCRIPT` resolves them)."""
    from pydantic import ValidationError

    from tui.cli.inputs import argv_text
    from tui.core.answers import friendly
    from tui.core.job_checks import is_remote

    if path is None:
        return spec
    try:
        path = argv_text(path)
    except ValueError as err:
        raise CliError(f"check: {err}") from None
    typed = Path(path)
    changes: dict[str, object] = {}
    if named_code and spec.code is not None and not is_remote(spec.code):
        inside = typed.resolve(strict=False)
        code = Path(spec.code).resolve(strict=False)
        if inside.is_relative_to(code):
            changes["script"] = inside.relative_to(code).as_posix()
    if "script" not in changes:
        changes["code"] = str(typed.parent) if str(typed.parent) != "." else None
        changes["script"] = typed.name
    try:
        return spec.with_changes(**changes)
    except ValidationError as err:
        raise CliError(f"check: {friendly(err)}") from None


def _gpus(target: str) -> bool:
    """Whether the ranks get GPUs: always on Azure ML; here, when this machine has some."""
    if target != "local":
        return True
    from tui.backends.local.procs import visible_gpus

    return bool(visible_gpus())
