"""`dtrain-tui check [inputs]`: what the training script lacks for its distributed plan.

Reads the script with `ast` (never imports or runs it) and prints each finding with its line
and fix. Exit 0 when clean, 1 with findings (advice, never a block), 2 on bad input (no such
script, not valid Python).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tui.cli.inputs import CliError, add_inputs, load_spec


def add_parser(sub) -> None:
    """Register `check` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "check",
        help="read the training script (never run) and say what it lacks for this plan",
    )
    add_inputs(p)


def cmd_check(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from tui.cli.terminal import console as terminal_console
    from tui.core.script_check import ScriptProblem, check_source
    from tui.core.spec import is_remote

    spec = load_spec(args)
    if spec.command is not None:
        raise CliError("check: this job runs a full command; name its script with --set script=")
    if spec.code is not None and is_remote(spec.code):
        raise CliError(f"check: code {spec.code} is not on this machine")
    path = Path(spec.code or ".", spec.script)
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise CliError(f"check: cannot read {path}: {err.strerror or err}") from None
    try:
        report = check_source(source, spec, str(path), gpus=_gpus(args.target))
    except ScriptProblem as err:
        raise CliError(f"check: {err}") from None
    console = terminal_console()
    shape = f"{spec.framework}, {spec.launch.replace('_', '-')}, {spec.nodes} nodes"
    console.print(f"[bold]{escape(str(path))}[/] for {shape}:")
    for f in report.findings:
        where = f"line {f.line}" if f.line else "missing"
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
