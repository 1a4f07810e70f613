"""`dtrain-tui reproduce NAME [--nodes N --gpus M] [--code FOLDER] [--dry-run]`: an Azure ML
job, failed or not, run again on this machine, small, with the same settings.

The job's definition and its code snapshot come from the workspace
(`tui.backends.azureml.reproduce`, which the app's `R` uses too); `tui.planning.reproduce` plans
it here at 1 node × 2 processes by default with the per-rank variables the cluster gave, scaled,
and lists what differs from the cluster. That list and the plan are printed before anything
starts (`--dry-run` stops there); then the local backend runs it as `submit --target local
--wait` does, rank 0's log on stdout, and the doctor reads both runs' logs;
`tui.planning.reproduce_verdict` says whether the failure is the same here, a different one, or
none ("it fails only at scale"). Exit 0 when the run here completed, 1 when it did not, 2 on bad
input (one line: no such job, a snapshot that cannot be read and no --code).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui.cli.inputs import CliError


def add_parser(sub, add_workspace) -> None:
    """Register `reproduce` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "reproduce",
        help="run an Azure ML job again on this machine, small (1 node × 2 processes), and "
        "compare the failure",
    )
    p.add_argument("name", metavar="NAME", help="the Azure ML job's name")
    p.add_argument("--nodes", type=int, default=1, metavar="N", help="nodes here (default 1)")
    p.add_argument(
        "--gpus", type=int, default=2, metavar="M", help="processes per node here (default 2)"
    )
    p.add_argument(
        "--code",
        metavar="FOLDER",
        help="the job's code folder on this machine, used when its snapshot cannot be read",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="show what differs and the plan; start nothing"
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="start it even above the rehearsal limit (4 processes per core, at least 16)",
    )
    add_workspace(p)


def cmd_reproduce(args: argparse.Namespace) -> int:
    from tui.backends.azureml.reproduce import read_definition, work_folder, write_stand_ins
    from tui.backends.base import BackendError
    from tui.cli.azure import backend as azure_backend
    from tui.planning.job_import import ImportProblem

    if args.nodes < 1 or args.gpus < 1:
        raise CliError("--nodes and --gpus: at least 1 each")
    azure = azure_backend(args)
    try:
        definition = read_definition(azure, args.name)
    except (BackendError, ImportProblem) as err:
        raise CliError(str(err)) from None
    folder = work_folder(definition.name)
    code, code_note = _code(azure, definition, args, folder)
    rep = _plan(definition, code, folder, args, code_note)
    _show(rep)
    if args.dry_run:
        print(f"dry run: nothing started; the job's code is in {code}", file=sys.stderr)
        return 0
    write_stand_ins(rep)
    return _run_and_compare(rep, args)


def _code(azure, definition, args: argparse.Namespace, folder: Path) -> tuple[Path, str]:
    """Where the job's code is here, and the line that says where it came from: the job's
    snapshot; else --code (the snapshot's problem said in one line); else exit 2 saying why."""
    from tui.backends.azureml.reproduce import CODE_WAY_OUT, snapshot_code
    from tui.backends.azureml.snapshot import SnapshotUnreadable

    if definition.code_id is None and args.code:
        return _local_code(args.code), f"code: {args.code} (the job has no code snapshot)"
    try:
        code, note = snapshot_code(azure, definition, folder)
    except SnapshotUnreadable as why:
        if not args.code:
            raise CliError(f"{why}; {CODE_WAY_OUT}") from None
        print(f"dtrain-tui: {why}; using --code {args.code}", file=sys.stderr)
        return _local_code(args.code), f"code: {args.code} (--code) instead of the job's snapshot"
    if args.code and definition.code_id is not None:
        print(f"dtrain-tui: {note}; --code is for when it cannot be read", file=sys.stderr)
    return code, note


def _local_code(path: str) -> Path:
    code = Path(path)
    if not code.is_dir():
        raise CliError(f"--code {path}: not a folder")
    return code.resolve()


def _plan(definition, code: Path, folder: Path, args: argparse.Namespace, code_note: str):
    """The reproduction planned for this machine; bad job fields exit 2 with their line."""
    from pydantic import ValidationError

    from tui.backends.azureml.reproduce import plan_here
    from tui.core.answers import friendly
    from tui.planning.job_import import ImportProblem

    try:
        return plan_here(
            definition, code, folder, nodes=args.nodes, gpus=args.gpus, code_note=code_note
        )
    except ImportProblem as err:
        raise CliError(f"job {definition.name}: {err}") from None
    except ValidationError as err:
        raise CliError(f"job {definition.name}: {friendly(err)}") from None
    except ValueError as err:  # the local target could not reserve its ports
        raise CliError(str(err)) from None


def _show(rep) -> None:
    """What differs from the cluster, then the plan here (summary, commands, env per rank)."""
    from rich.markup import escape
    from rich.text import Text

    from tui.cli.render import env, print_plan
    from tui.cli.terminal import console as terminal_console
    from tui.cli.terminal import visible
    from tui.planning.plan import describe

    console = terminal_console()
    d = rep.definition
    console.print(
        f"[bold]Reproducing {escape(d.name)}[/] ({escape(d.status)} on Azure ML: "
        f"{escape(describe(rep.cluster))})",
        emoji=False,
    )
    console.print("[bold]What differs from the cluster[/]", emoji=False)
    for line in rep.differences:
        shown = visible(line) if console.is_terminal else line
        console.print(f"  - {escape(shown)}", emoji=False, soft_wrap=True)
    console.print()
    print_plan(rep.local, "command", console)
    for part in env(rep.local, visible if console.is_terminal else str):
        if isinstance(part, Text):
            console.print(part, end="")
        else:  # piped: the plain text as it is
            console.file.write(str(part))
    console.file.flush()


def _run_and_compare(rep, args: argparse.Namespace) -> int:
    """Run the plan here as `submit --target local --wait` does, then diagnose both runs."""
    from tui.backends.base import BackendError, JobState
    from tui.backends.local import LocalBackend
    from tui.cli.jobs import _follow, _preflight, _processes
    from tui.planning.reproduce_verdict import verdict

    p = rep.local
    _preflight(p, args.force)
    print(f"dtrain-tui: {_processes(p)}", file=sys.stderr, flush=True)
    backend = LocalBackend()
    try:
        job = backend.submit(p)
    except BackendError as err:
        raise CliError(str(err)) from None
    print(f"dtrain-tui: local job {job.name}", file=sys.stderr, flush=True)
    code = _follow(backend, job, Path(job.location, p.ranks[0].log_file))
    if code == 130:
        return code
    here = _diagnosis(argparse.Namespace(target="local", name=job.name))
    there = _diagnosis(
        argparse.Namespace(
            target="azure",
            name=rep.definition.name,
            subscription=getattr(args, "subscription", None),
            resource_group=getattr(args, "resource_group", None),
            workspace=getattr(args, "workspace", None),
        )
    )
    for line in verdict(there, here, rep):
        print(line)
    return 0 if backend.status(job).state is JobState.COMPLETED else 1


def _diagnosis(args: argparse.Namespace):
    """The doctor's diagnosis of job `args.name` on `args.target` (as `dtrain-tui doctor`
    makes it), or the one line that says why there is none."""
    from tui.cli.doctor import job_logs
    from tui.logs.doctor import diagnose

    try:
        job = job_logs(args)
    except CliError as err:
        return str(err)
    return diagnose(job.logs, job.mtimes, local=args.target == "local", **job.state)
