"""`dtrain-tui doctor NAME|PATH [--json]`: which rank broke the job, why, and the fix.

PATH is a log file or a folder of logs (one downloaded from Azure ML Studio, a terminal's output
saved to a file); NAME is a job on `--target` (this machine by default). Every log is read
(`tui.logs.doctor`): its head, its first error and its tail, so a huge log costs no more than a
small one. Exit 0 when healthy, 1 when a failure was diagnosed, 2 on bad input (one line: a
missing path, an empty folder, files that are binary or hold no text).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from tui.cli.inputs import CliError

TAIL_BYTES = 4 << 20
"""How much of each log of a job is read (its end: failures are there)."""


def add_parser(sub, targets: tuple[str, ...], add_workspace) -> None:
    """Register `doctor` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "doctor",
        help="read every rank's log: the rank that failed first, the cause and the fix",
    )
    p.add_argument(
        "name",
        metavar="NAME|PATH",
        help="a job's name, or a log file or folder of logs (e.g. one downloaded from Studio)",
    )
    p.add_argument("--json", action="store_true", help="print the diagnosis as one JSON object")
    p.add_argument(
        "--target", choices=targets, default="local", help="where job NAME runs (default: here)"
    )
    add_workspace(p)


def cmd_doctor(args: argparse.Namespace) -> int:
    from tui.logs.doctor import diagnose, load_path

    path = Path(args.name)
    local = False
    if path.exists():
        try:
            logs, mtimes = load_path(path)
        except (OSError, ValueError) as err:
            reason = getattr(err, "strerror", None) or err
            raise CliError(f"doctor: cannot read {path}: {reason}") from None
        failed = None
        if not logs:
            raise CliError(f"doctor: {path} holds no log files (.txt or .log)")
        _check_readable(path, logs)
    else:
        if "/" in args.name or args.name.endswith((".txt", ".log")):
            raise CliError(f"doctor: {args.name}: no such file or folder")
        logs, mtimes, failed = _job_logs(args)
        local = args.target == "local"
    diagnosis = diagnose(logs, mtimes, failed=failed, local=local)
    if args.json:
        json.dump(diagnosis.to_json(), sys.stdout)
        print()
    else:
        _print(diagnosis)
    return 0 if diagnosis.healthy else 1


def _check_readable(path: Path, logs) -> None:
    """One line, exit 2, when no log holds text the doctor can read."""
    if all(ex.binary for ex in logs.values()):
        raise CliError(f"doctor: {path} holds no text logs (binary files only)")
    if not any(text.strip() for ex in logs.values() for _, text in ex.lines):
        raise CliError(f"doctor: {path} holds no log text (empty once escape codes are removed)")


def _job_logs(args: argparse.Namespace) -> tuple[dict, dict[str, float], bool]:
    """Every log of job NAME (the end of each), their sizes' order, and whether it failed."""
    import asyncio

    from tui.backends.base import BackendError, JobState
    from tui.cli.jobs import LOG_BACKENDS
    from tui.logs.evidence import Excerpt, excerpt, read_excerpt
    from tui.logs.sources import read_tail

    backend = LOG_BACKENDS[args.target](args)
    try:
        job = backend.handle(args.name)
        status = backend.status(job)
        sources = backend.log_sources(job)
    except BackendError as err:
        raise CliError(str(err)) from None
    if not sources:
        raise CliError(f"doctor: job {job.name} has no logs yet ({status.summary()})")

    async def read_all() -> dict[str, Excerpt]:
        gate = asyncio.Semaphore(16)

        async def one(name: str, source) -> tuple[str, Excerpt]:
            path = getattr(source, "path", None)
            if isinstance(path, Path) and path.is_file():  # a local log: read in place
                return name, await asyncio.to_thread(read_excerpt, path)
            async with gate:
                try:
                    _, data = await read_tail(source, TAIL_BYTES)
                finally:
                    close = getattr(source, "aclose", None)
                    if close is not None:
                        await close()
            return name, excerpt(data)  # keep the excerpt, not the bytes

        pairs = await asyncio.gather(*(one(n, s) for n, s in sources.items()))
        return {name: ex for name, ex in pairs if ex.lines}

    logs = asyncio.run(read_all())
    mtimes = _local_mtimes(sources)
    return logs, mtimes, status.state is JobState.FAILED


def _local_mtimes(sources) -> dict[str, float]:
    """When each local log was last written (a file's mtime); nothing for remote logs."""
    out = {}
    for name, source in sources.items():
        path = getattr(source, "path", None)
        if path is not None:
            with contextlib.suppress(OSError):
                out[name] = path.stat().st_mtime
    return out


def _print(diagnosis) -> None:
    from rich.markup import escape

    from tui.cli.terminal import console as terminal_console

    console = terminal_console()
    if diagnosis.healthy:
        console.print("[green]healthy[/]: no rank's log shows a failure")
        return
    head, *rest = diagnosis.paragraph().split("\n")
    console.print(f"[bold red]{escape(head)}[/]", emoji=False)
    for line in rest:
        console.print(escape(line), emoji=False)
