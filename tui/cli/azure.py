"""`dtrain-tui submit|jobs|cancel --target azure`: the Azure ML side of the job commands.

Imported only when a command names the Azure target, so the local commands never pay for
azure-ai-ml. Problems raise BackendError (one line); `tui.cli` prints it and exits 2. Nothing
here imports `tui.cli`: run as `python -m tui.cli` that module exists twice.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.command_name import hint as hint_for

if TYPE_CHECKING:
    from tui.backends.azureml import AzureMLBackend
    from tui.backends.base import JobHandle
    from tui.logs.sources import LogSource
    from tui.planning.plan import LaunchPlan

WriteLog = Callable[[Any, "JobHandle", "LogSource", bool], int]


def backend(args: argparse.Namespace) -> AzureMLBackend:
    """The backend for the workspace the flags, the environment or config.json name."""
    from tui.backends.azureml import AzureMLBackend

    return AzureMLBackend(
        subscription=getattr(args, "subscription", None),
        resource_group=getattr(args, "resource_group", None),
        workspace_name=getattr(args, "workspace", None),
    )


def submit(args: argparse.Namespace, p: LaunchPlan, write_log: WriteLog) -> int:
    """Check the cluster, submit, print the job's name and Studio URL; `--wait` follows rank 0
    with `write_log` (the `logs --follow` writer)."""
    azure = backend(args)
    azure.workspace  # noqa: B018 - no network: a missing workspace fails before any import
    azure.sign_in()
    for warning in _check_or_create_compute(azure, args, p).warnings:
        print(f"warning: {warning}", file=sys.stderr)
    job = azure.submit(p)
    print(job.name, flush=True)
    print(f"studio: {job.location}", flush=True)
    for warning in p.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    shown = f"{job.name} --target azure"
    if not args.wait:
        print(f"logs: {hint_for('logs', shown)} · stop: {hint_for('cancel', shown)}")
        return 0
    try:
        return _follow_rank_0(azure, job, write_log)
    except KeyboardInterrupt:
        print(f"\nstopped following; the job runs on: {hint_for('cancel', shown)}", file=sys.stderr)
        return 130


def _check_or_create_compute(azure: AzureMLBackend, args: argparse.Namespace, p: LaunchPlan):
    """The compute check; with --create-compute a missing cluster is created first."""
    from tui.backends.base import BackendError, ComputeNotFound

    try:
        return azure.check_compute(p)
    except ComputeNotFound as missing:
        if not getattr(args, "create_compute", False):
            raise
        name = missing.name
    from tui.planning.sdk import cluster_notes, sdk_cluster

    if args.idle_minutes < 1:
        raise BackendError(f"--idle-minutes must be at least 1, got {args.idle_minutes}")
    cluster = sdk_cluster(
        p, name, low_priority=args.low_priority, idle_seconds=args.idle_minutes * 60
    )
    print(f"compute cluster {name} does not exist; creating it:", file=sys.stderr)
    for note in cluster_notes(p, cluster):
        print(f"  {note}", file=sys.stderr)
    print(azure.create_compute(cluster, lambda line: print(line, file=sys.stderr)))
    return azure.check_compute(p)


def _follow_rank_0(
    azure: AzureMLBackend, job: JobHandle, write_log: WriteLog, every: float = 1.0
) -> int:
    """Wait until rank 0's log is listed, then write it until the job ends."""
    from tui.logs.names import default_log

    while True:
        status = azure.status(job)
        sources = azure.log_sources(job)
        name = default_log(sources)
        if name is not None:
            return write_log(azure, job, sources[name], True)
        if status.is_terminal:
            print(f"job {job.name}: {status.summary()} (no logs)", file=sys.stderr)
            return 1
        time.sleep(every)


def jobs(args: argparse.Namespace) -> int:
    """The workspace's newest jobs, newest first."""
    azure = backend(args)
    recent = azure.recent_jobs()
    if not recent:
        skipped = f" ({recent.note()})" if getattr(recent, "skipped", 0) else ""
        print(f"no jobs in workspace {azure.workspace.name}{skipped}")
        return 0
    from screens.jobs_progress import ProgressReader
    from screens.jobs_rows import azure_rows
    from tui.cli.jobs_table import PROGRESS_COLUMNS, print_table, progress_cells, what

    rows = [("NAME", "STATUS", "CREATED", *PROGRESS_COLUMNS, "WHAT")]
    listed, _ = azure_rows(_Listed(azure, recent), ProgressReader())
    for job, row in zip(recent, listed, strict=True):
        created = (
            job.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S") if job.created_at else ""
        )
        rows.append((job.handle.name, job.azure_status, created, *progress_cells(row), what(row)))
    print_table(rows)
    if getattr(recent, "skipped", 0):
        print(f"({recent.note()})")
    return 0


class _Listed:
    """`backend` whose newest jobs are `recent`, already listed (one `jobs.list`)."""

    def __init__(self, backend: Any, recent: Any) -> None:
        self._backend, self._recent = backend, recent

    def recent_jobs(self) -> Any:
        return self._recent

    def __getattr__(self, name: str) -> Any:
        return getattr(self._backend, name)


def cancel(args: argparse.Namespace) -> int:
    """Ask Azure ML to cancel the job; say where it stands after."""
    azure = backend(args)
    job = azure.handle(args.name)
    before = azure.status(job)
    if before.is_terminal:
        print(f"{job.name} had already ended: {before.summary()}")
        return 0
    azure.cancel(job)
    print(f"{job.name}: {azure.status(job).summary()}")
    return 0
