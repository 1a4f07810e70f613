"""`dtrain-tui check [inputs]`: what the training script lacks for its distributed plan.

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
    add_inputs(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print the findings as a JSON list of {file, line, rule, severity, message, fix}",
    )


def cmd_check(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from tui.cli.terminal import console as terminal_console
    from tui.core.script_check import ScriptProblem, check_file
    from tui.core.spec import is_remote

    spec = load_spec(args)
    if spec.command is not None:
        raise CliError("check: this job runs a full command; name its script with --set script=")
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


def _gpus(target: str) -> bool:
    """Whether the ranks get GPUs: always on Azure ML; here, when this machine has some."""
    if target != "local":
        return True
    from tui.backends.local.procs import visible_gpus

    return bool(visible_gpus())
