"""`dtrain-tui submit|jobs|cancel|logs`: running jobs and reading their logs.

The local backend by default; `--target azure` hands the same commands to `tui.cli.azure`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tui.cli.inputs import CliError, load_spec
from tui.command_name import hint


def cmd_submit(args: argparse.Namespace) -> int:
    from tui.backends.base import BackendError
    from tui.backends.local import LocalBackend
    from tui.planning.plan import Target, plan

    if args.target == "azureml":
        from tui.cli.azure import submit
        from tui.core.job_checks import submit_problems
        from tui.planning.plan import AZUREML

        p = plan(load_spec(args), AZUREML)
        for problem in submit_problems(p.spec)[:1]:  # what Azure ML would refuse, said first
            raise CliError(problem)
        return _on_azure(submit, args, p, _write_log)
    spec = load_spec(args)
    try:
        p = plan(spec, Target.for_spec("local", spec))
    except ValueError as err:  # the local target could not reserve its ports
        raise CliError(str(err)) from None
    _preflight(p, getattr(args, "force", False))
    print(f"dtrain-tui: {_processes(p)}", file=sys.stderr, flush=True)
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
        print(f"status: {hint('jobs')} · stop: {hint('cancel', job.name)}")
        return 0
    return _follow(backend, job, Path(job.location, p.ranks[0].log_file))


def _processes(p) -> str:
    """How many processes a local run starts, said before they start."""
    import os

    n, per = len(p.nodes), p.workers_per_node
    cores = os.cpu_count() or 1
    return (
        f"starting {p.world_size} process{'es' if p.world_size != 1 else ''} here: "
        f"{n} simulated node{'s' if n != 1 else ''} × {per} "
        f"(this machine has {cores} CPU core{'s' if cores != 1 else ''})"
    )


def _preflight(p, force: bool = False) -> None:
    """Stop (exit 2) before any process starts when the run cannot work here; say the fix."""
    from tui.planning.preflight import check_local

    findings = check_local(p, force=force)
    blocking = [f for f in findings if f.blocking]
    for f in findings:
        if not f.blocking and not blocking:  # when it cannot run, only what stops it
            print(f"warning: {f.line()}", file=sys.stderr)
    for f in blocking[1:]:
        print(f"dtrain-tui: also: {f.line()}", file=sys.stderr)
    if blocking:
        raise CliError(f"cannot run here: {blocking[0].line()}")


FOLLOW_READ = 1 << 20
"""Bytes of the log `submit --wait` reads and writes at a time."""


def _follow(backend, job, log: Path) -> int:
    """Copy `log` to stdout as it grows until the job ends; Ctrl-C cancels the job."""
    import time

    from tui.backends.base import JobState
    from tui.cli.terminal import LogWriter, is_terminal

    offset = 0
    out = LogWriter(sys.stdout.buffer, is_terminal(sys.stdout))
    try:
        while True:
            status = backend.status(job)  # before reading: once it is final, so is the log
            try:
                with log.open("rb") as f:
                    f.seek(offset)
                    # A megabyte at a time: a burst of a gigabyte was read (and held) whole.
                    while data := f.read(FOLLOW_READ):
                        out.write(data)
                        offset += len(data)
            except FileNotFoundError:
                pass
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
    from tui.cli.streams import has_terminal

    if has_terminal() and not getattr(args, "no_ui", False):  # else the table
        from tui.app import run_jobs

        return run_jobs(_jobs_backends(args))  # the jobs list: here and Azure ML together
    if args.target == "azureml":
        from tui.cli.azure import jobs

        return _on_azure(jobs, args)

    backend = LocalBackend(detach=True)
    jobs = backend.jobs()
    for problem in backend.damaged.values():  # once each; the job's row says Unknown
        print(f"warning: {problem}", file=sys.stderr)
    if not jobs:
        print(f"no local jobs in {backend.root}; `{hint('submit', '--preset', 'NAME')}` starts one")
        return 0
    from screens.jobs_progress import ProgressReader
    from screens.jobs_rows import local_rows
    from tui.cli.jobs_table import PROGRESS_COLUMNS, print_table, progress_cells, what

    rows = [("NAME", "STATUS", "CREATED", "TOOK", *PROGRESS_COLUMNS, "WHAT")]
    for row in local_rows(backend, None, ProgressReader()):
        took = row.progress.took if row.progress else None
        created = row.created_at.astimezone() if row.created_at else None
        when = created.strftime("%Y-%m-%d %H:%M:%S") if created else ""
        took_text = f"{took:.1f} s" if took is not None else ""
        rows.append((row.handle.name, row.status, when, took_text, *progress_cells(row), what(row)))
    print_table(rows)
    return 0


def _jobs_backends(args: argparse.Namespace) -> dict[str, Callable[[], Any]]:
    """The jobs list's backends: this machine's, and the workspace the flags (else the
    environment or config.json) name when azure-ai-ml is installed; each made once."""
    from tui.app import default_backends

    backends = default_backends()
    backends["local"] = _local_backend
    if "azureml" in backends:
        made: list[Any] = []

        def azure() -> Any:
            if not made:
                made.append(_azure_backend(args))
            return made[0]

        backends["azureml"] = azure
    return backends


def cmd_cancel(args: argparse.Namespace) -> int:
    from tui.backends.base import BackendError
    from tui.backends.local import LocalBackend

    if args.target == "azureml":
        from tui.cli.azure import cancel

        return _on_azure(cancel, args)

    backend = LocalBackend(detach=True)
    try:
        job = backend.handle(args.name)
        before = backend.status(job)
        if before.is_terminal:
            print(f"{job.name} had already ended: {before.summary()}")
            return 0
        unrecorded = backend.cancel(job)  # the processes are stopped even then
    except BackendError as err:
        raise CliError(str(err)) from None
    if unrecorded:
        print(f"warning: {unrecorded}", file=sys.stderr)
        print(f"{job.name}: Canceled (its processes are stopped)")
        return 0
    print(f"{job.name}: {backend.status(job).summary()}")
    return 0


def _on_azure(command: Callable[..., int], *args: Any) -> int:
    """Run an Azure ML command of `tui.cli.azure`; its BackendError is our one-line error."""
    from tui.backends.base import BackendError

    try:
        return command(*args)
    except BackendError as err:
        raise CliError(str(err)) from None


def _local_backend(args: argparse.Namespace | None = None):
    from tui.backends.local import LocalBackend

    return LocalBackend(detach=True)


def _azure_backend(args: argparse.Namespace):
    from tui.cli.azure import backend

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
    from tui.cli.streams import has_terminal

    ui = has_terminal() and not args.no_ui  # stdin and stdout a terminal, else plain text
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

    from tui.cli.terminal import is_terminal, visible

    terminal = is_terminal(sys.stdout)  # `logs --no-ui` on a terminal: escapes shown escaped

    async def copy() -> str | None:
        follower = LogFollower(source, done=job_ended if follow else (lambda: True))
        out = getattr(sys.stdout, "buffer", None)
        said = None
        async for update in follower:
            if update.state.notice != said:  # its path deleted or replaced: followed on
                said = update.state.notice
                print(f"dtrain-tui: {said}", file=sys.stderr)
            if update.restart:
                print(
                    f"dtrain-tui: {source.name} was rewritten; reading it again from the start",
                    file=sys.stderr,
                )
            if update.lines:
                text = "\n".join(update.lines) + "\n"
                if terminal:
                    text = visible(text, keep_cr=True)
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
