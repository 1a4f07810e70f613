"""`dtrain-tui reproduce NAME [--nodes N --gpus M] [--code FOLDER] [--dry-run]`: an Azure ML
job, failed or not, run again on this machine, small, with the same settings.

The job's definition and its code snapshot come from the workspace (`tui.backends.azureml.
snapshot`); `tui.planning.reproduce` plans it here at 1 node × 2 processes by default with the
per-rank variables the cluster gave, scaled, and lists what differs from the cluster. That list
and the plan are printed before anything starts (`--dry-run` stops there); then the local
backend runs it as `submit --target local --wait` does, rank 0's log on stdout, and the doctor
reads both runs' logs and says whether the failure is the same here, a different one, or none
("it fails only at scale"). Exit 0 when the run here completed, 1 when it did not, 2 on bad
input (one line: no such job, a snapshot that cannot be read and no --code).
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from pathlib import Path

from tui.cli.inputs import CliError

STAND_IN = """This folder stands in for the input `{name}` of Azure ML job {job}.
On the cluster it was: {was}
`dtrain-tui reproduce` does not copy job inputs; put a small sample of the data here to use one.
"""


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
    from tui.backends.base import BackendError
    from tui.cli.azure import backend as azure_backend
    from tui.planning.job_import import ImportProblem
    from tui.planning.reproduce import definition_from_body

    if args.nodes < 1 or args.gpus < 1:
        raise CliError("--nodes and --gpus: at least 1 each")
    azure = azure_backend(args)
    from tui.backends.azureml.snapshot import job_body

    try:
        definition = definition_from_body(job_body(azure, args.name))
    except (BackendError, ImportProblem) as err:
        raise CliError(str(err)) from None
    folder = _work_folder(definition.name)
    code, code_note = _code(azure, definition, args, folder)
    rep = _plan(definition, code, folder, args, code_note)
    _show(rep)
    if args.dry_run:
        print(f"dry run: nothing started; the job's code is in {code}", file=sys.stderr)
        return 0
    _write_stand_ins(rep)
    return _run_and_compare(rep, args)


def _work_folder(name: str) -> Path:
    """A new folder for this reproduction: the code snapshot, stand-in inputs, outputs."""
    from tui.core.dirs import state_dir

    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    return state_dir() / "reproduce" / f"{name}-{stamp}"


def _code(azure, definition, args: argparse.Namespace, folder: Path) -> tuple[Path, str]:
    """Where the job's code is here, and the line that says where it came from: the job's
    snapshot; else --code (the snapshot's problem said in one line); else exit 2 saying why."""
    from tui.backends.azureml.snapshot import SnapshotUnreadable, download_snapshot

    if definition.code_id is None:
        if args.code:
            return _local_code(args.code), f"code: {args.code} (the job has no code snapshot)"
        empty = folder / "code"
        empty.mkdir(parents=True)
        return empty, "code: none, as on the cluster (the job has no code snapshot)"
    try:
        asset = download_snapshot(azure, definition.code_id, folder / "code")
    except SnapshotUnreadable as err:
        why = f"the code snapshot of job {definition.name} cannot be read: {err}"
        if not args.code:
            raise CliError(f"{why}; pass --code FOLDER to run a local copy of its code") from None
        print(f"dtrain-tui: {why}; using --code {args.code}", file=sys.stderr)
        return _local_code(args.code), f"code: {args.code} (--code) instead of the job's snapshot"
    if args.code:
        print(
            f"dtrain-tui: using the job's snapshot {asset}; --code is for when it cannot be read",
            file=sys.stderr,
        )
    return folder / "code", f"code: the job's own snapshot ({asset}), copied to {folder / 'code'}"


def _local_code(path: str) -> Path:
    code = Path(path)
    if not code.is_dir():
        raise CliError(f"--code {path}: not a folder")
    return code.resolve()


def _plan(definition, code: Path, folder: Path, args: argparse.Namespace, code_note: str):
    """The reproduction planned for this machine; bad job fields exit 2 with their line."""
    import platform

    from pydantic import ValidationError

    from tui.backends.local.procs import visible_gpus
    from tui.core.answers import friendly
    from tui.core.plan_types import Target
    from tui.planning.job_import import ImportProblem
    from tui.planning.reproduce import reproduce

    python = f"Python {platform.python_version()}, {sys.executable}"
    try:
        return reproduce(
            definition,
            code,
            folder,
            nodes=args.nodes,
            gpus=args.gpus,
            target=Target.local(args.nodes + 1),  # a port per task: workers and one ps
            gpus_here=len(visible_gpus()),
            python=python,
            code_note=code_note,
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


def _write_stand_ins(rep) -> None:
    """The folders the inputs and outputs point at here; an input's says what it replaces."""
    for r in rep.replaced:
        r.here.mkdir(parents=True, exist_ok=True)
        if r.kind == "input":
            text = STAND_IN.format(name=r.name, job=rep.definition.name, was=r.was)
            (r.here / "README.dtrain-tui.txt").write_text(text, encoding="utf-8")


def _run_and_compare(rep, args: argparse.Namespace) -> int:
    """Run the plan here as `submit --target local --wait` does, then diagnose both runs."""
    from tui.backends.base import BackendError, JobState
    from tui.backends.local import LocalBackend
    from tui.cli.jobs import _follow, _preflight, _processes

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


_BETWEEN_NODES = {
    "nccl_timeout",
    "nccl_system_error",
    "rendezvous_timeout",
    "hang",
    "node_failure",
    "mpi_error",
    "tf_cluster_error",
}
_SIZE = {"cuda_oom", "host_oom_killed", "disk_full"}
_PLATFORM = {
    "image_pull_failed",
    "environment_build_failed",
    "data_access_failed",
    "capacity_or_quota",
    "node_preempted",
    "job_time_limit",
    "azureml_system_error",
}


def verdict(there, here, rep) -> list[str]:
    """What each run's doctor said, then the comparison: the same failure here, a different
    one, or none here ("it fails only at scale", with the likely reason). `there` and `here`
    are diagnoses, or the line saying why one could not be made."""
    lines = [f"on the cluster: {_said(there)}", f"here: {_said(here)}"]
    if isinstance(there, str) or isinstance(here, str):
        lines.append("cannot compare the two runs without both diagnoses")
    elif there.failed and here.failed and there.cause == here.cause:
        lines.append(
            f"same failure here: {here.title}. Fix it here, where a try takes seconds: {here.fix}"
        )
    elif there.failed and here.failed:
        lines.append(
            f"a different failure here: {here.title}, not the cluster's {there.title}; what "
            "differs from the cluster (listed above) is the likely reason"
        )
    elif there.failed:
        lines.append(
            f"none here: it fails only at scale: the cause is likely {_at_scale(there, rep)}"
        )
    elif here.failed:
        lines.append(
            f"a failure here that the cluster did not have: {here.title}; what differs from "
            "the cluster (listed above) is the likely reason"
        )
    else:
        lines.append("none here, and none on the cluster")
    return lines


def _said(d) -> str:
    if isinstance(d, str):
        return d
    if d.failed:
        return d.title + (f" (rank {d.rank})" if d.rank is not None else "")
    return "completed (proven healthy)" if d.healthy else "no failure found, not proven healthy"


def _at_scale(there, rep) -> str:
    """Why a failure of the cluster's does not happen at the shape run here."""
    local = rep.local
    shape = f"{local.instance_count} × {local.workers_per_node}"
    if there.cause in _PLATFORM:
        return f"the platform: {there.title} comes from Azure ML, not from the script"
    if there.cause in _BETWEEN_NODES:
        return f"the network between nodes: {there.title} needs nodes, which a run here has not"
    if there.cause in _SIZE:
        return f"the size: {there.title} at the cluster's size, which {shape} here does not reach"
    if there.rank is not None and there.rank >= local.world_size:
        return (
            f"rank {there.rank}, which does not exist at {shape} (WORLD_SIZE "
            f"{local.world_size}): what that rank does differently (its share of the data, its "
            "role), or the job's size"
        )
    return f"what differs from the cluster (listed above): {there.title} did not happen at {shape}"
