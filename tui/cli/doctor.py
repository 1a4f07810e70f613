"""`dtrain-tui doctor NAME|PATH [--json]`: which rank broke the job, why, and the fix.

PATH is a log file or a folder of logs (one downloaded from Azure ML Studio, a terminal's output
saved to a file); NAME is a job on `--target` (this machine by default). Every log is read
(`tui.logs.doctor`): its head, its first error and its tail, so a huge log costs no more than a
small one. Three verdicts: healthy only with proof (an exit status 0 the backend recorded, a
completion line, a running job's progress up to the end of its logs), failed (cause, rank,
evidence, fix), or "no failure found, not proven healthy" with the most severe lines seen.
Exit 0 when proven healthy, 1 when a failure was diagnosed, 3 when not proven, 2 on bad input
(one line: a missing path, an empty folder, files that are binary or hold no text).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from tui.cli.inputs import CliError

NOT_PROVEN_EXIT = 3
"""No failure found, and no proof of health: not 0 (a script must not read it as healthy)."""
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
    p.add_argument(
        "--vm-size",
        metavar="SIZE",
        help="the VM size the job ran on (a local job's own is read from it): warns when it has "
        "InfiniBand but NCCL used sockets",
    )
    add_workspace(p)


def cmd_doctor(args: argparse.Namespace) -> int:
    from tui.logs.doctor import diagnose, load_path

    path = Path(args.name)
    local = False
    job: JobLogs | None = None
    if path.exists():
        try:
            logs, mtimes = load_path(path)
        except (OSError, ValueError) as err:
            reason = getattr(err, "strerror", None) or err
            raise CliError(f"doctor: cannot read {path}: {reason}") from None
        state: dict = {}
        if not logs:
            raise CliError(f"doctor: {path} holds no log files (.txt or .log)")
        _check_readable(path, logs)
        files = [path] if path.is_file() else [path / name for name in logs]
        hints: dict = {}
        reader = None
    else:
        if "/" in args.name or args.name.endswith((".txt", ".log")):
            raise CliError(f"doctor: {args.name}: no such file or folder")
        job = job_logs(args)
        logs, mtimes, state, files, hints = job.logs, job.mtimes, job.state, job.files, job.hints
        reader = job.network
        local = args.target == "local"
    diagnosis = diagnose(logs, mtimes, local=local, **state)
    vm_size = args.vm_size or hints.get("sku")
    network, warning = _network(files, reader, vm_size, hints)
    allreduce = _allreduce(logs, vm_size, network.get("nodes") or hints.get("nodes") or 1)
    timeline, hourly = _timeline(job, diagnosis, vm_size, local) if job else ([], None)
    if args.json:
        out = diagnosis.to_json()
        out["network"] = network
        if allreduce is not None:
            out["allreduce"] = allreduce
        if timeline:
            out["timeline"] = [phase.to_json(hourly) for phase in timeline]
        json.dump(out, sys.stdout)
        print()
    else:
        _print(diagnosis)
        _print_network(network, warning)
        if allreduce is not None:
            print(f"all_reduce_perf: {allreduce['verdict']}")
        _print_timeline(timeline, hourly)
    return 0 if diagnosis.healthy else 1 if diagnosis.failed else NOT_PROVEN_EXIT


def _timeline(
    job: JobLogs, diagnosis, vm_size: str | None, local: bool
) -> tuple[list, float | None]:
    """The job's phases (`tui.logs.timeline`) and its nodes' price per hour when its VM size is
    known; the first failure placed by a zoned line that says the culprit rank ended."""
    from datetime import datetime, timezone

    from tui.core.prices import PlanPrice, vm_price
    from tui.logs.timeline import of_job

    lines = (text for ex in job.logs.values() for _, text in ex.lines)
    timeline = of_job(job.status, lines, diagnosis, local, datetime.now(timezone.utc))
    nodes = job.hints.get("nodes") or 1
    hourly = PlanPrice(vm_size, nodes, vm_price(vm_size)).dedicated if vm_size else None
    return timeline, hourly


def _print_timeline(timeline: list, hourly: float | None) -> None:
    from tui.logs.timeline import describe

    if timeline:
        print("timeline: " + "\n          ".join(describe(timeline, hourly)))


def _network(files, reader, vm_size: str | None, hints: dict) -> tuple[dict, object]:
    """The `network` object: what NCCL's INFO lines say (`tui.logs.network`), the VM size and,
    when it has InfiniBand but NCCL used sockets, the warning with its causes and fixes."""
    from tui.core.catalog import find_sku
    from tui.logs.network import NetworkReader, fallback_warning, feed_file

    nodes = hints.get("nodes")
    reader = reader or NetworkReader()  # remote logs: their tails were fed as they came
    for file in files:
        feed_file(reader, Path(file))
    net = reader.network_seen(nodes)
    sku = find_sku(vm_size)
    has_ib = bool(sku and sku.nccl_can_use_infiniband)
    warning = fallback_warning(net, sku.name if sku else vm_size, has_ib)
    out = net.to_json()
    out.update(
        summary=net.summary(),
        vm_size=sku.name if sku else vm_size,
        vm_size_has_infiniband=has_ib if sku else None,
        warning=warning.to_json() if warning else None,
    )
    return out, warning


def _allreduce(logs, vm_size: str | None, nodes: int) -> dict | None:
    """An nccl-tests all_reduce_perf table in the logs (the cluster check), read and compared
    with what the VM size should reach; None when no log holds one."""
    from tui.logs.nccl_tests import compare, parse

    for ex in logs.values():
        result = parse(text for _, text in ex.lines)
        if result is not None and result.rows:
            return {**result.to_json(), **compare(result, vm_size, int(nodes)).to_json()}
    return None


def _print_network(network: dict, warning) -> None:
    from rich.markup import escape

    from tui.cli.terminal import console as terminal_console

    if not network.get("nccl_info_seen"):
        return
    console = terminal_console()
    console.print(f"network: {escape(str(network['summary']))}", emoji=False)
    if warning is not None:
        console.print(f"[bold red]{escape(warning.text())}[/]", emoji=False)


def _check_readable(path: Path, logs) -> None:
    """One line, exit 2, when no log holds text the doctor can read."""
    if all(ex.binary for ex in logs.values()):
        raise CliError(f"doctor: {path} holds no text logs (binary files only)")
    if not any(text.strip() for ex in logs.values() for _, text in ex.lines):
        raise CliError(f"doctor: {path} holds no log text (empty once escape codes are removed)")


@dataclass
class JobLogs:
    """What the doctor reads of a job: every log (the end of each), when each local one was
    last written, what its backend recorded (`failed`, `succeeded`: exit status 0, `running`,
    the service's error), the local log files (searched whole for NCCL's lines), the plan's VM
    size and node count, what the remote logs' tails said of the network, and its status."""

    logs: dict
    mtimes: dict[str, float]
    state: dict
    files: list
    hints: dict
    network: object
    status: object


def job_logs(args: argparse.Namespace) -> JobLogs:
    """The logs and records of job `args.name` on `args.target` (CliError in one line when
    there are none)."""
    import asyncio

    from tui.backends.base import BackendError, JobState
    from tui.cli.jobs import LOG_BACKENDS
    from tui.logs.evidence import Excerpt, excerpt, read_excerpt
    from tui.logs.network import NetworkReader, feed_bytes
    from tui.logs.sources import read_tail

    backend = LOG_BACKENDS[args.target](args)
    try:
        job = backend.handle(args.name)
        status = backend.status(job)
        sources = backend.log_sources(job)
    except BackendError as err:
        raise CliError(str(err)) from None
    if not sources and not status.error:  # the service's error alone is worth reading
        raise CliError(f"doctor: job {job.name} has no logs yet ({status.summary()})")

    network = NetworkReader()

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
            feed_bytes(network, data)  # NCCL's lines are counted, not kept
            return name, excerpt(data)  # keep the excerpt, not the bytes

        pairs = await asyncio.gather(*(one(n, s) for n, s in sources.items()))
        return {name: ex for name, ex in pairs if ex.lines}

    logs = asyncio.run(read_all())
    mtimes = _local_mtimes(sources)
    files = [p for s in sources.values() if isinstance(p := getattr(s, "path", None), Path)]
    state = {
        "failed": status.state is JobState.FAILED,
        "succeeded": status.state is JobState.COMPLETED,
        "running": status.state is JobState.RUNNING,
        # The service's own error (its code and message: `SystemError`, a preemption, a pull
        # that failed) is read like a log: the platform's causes are often only there.
        "service_error": status.error,
    }
    return JobLogs(logs, mtimes, state, files, _plan_hints(job), network, status)


def _plan_hints(job) -> dict:
    """The VM size and node count a local job was planned with (its job.json), else nothing."""
    with contextlib.suppress(OSError, ValueError, LookupError, TypeError, AttributeError):
        data = json.loads((Path(job.location) / "job.json").read_text(encoding="utf-8"))
        spec = (data.get("plan") or {}).get("spec") or {}
        return {"sku": spec.get("sku"), "nodes": spec.get("nodes")}
    return {}


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
    head, *rest = diagnosis.paragraph().split("\n")
    style = "green" if diagnosis.healthy else "bold red" if diagnosis.failed else "bold yellow"
    console.print(f"[{style}]{escape(head)}[/]", emoji=False)
    for line in rest:
        console.print(escape(line), emoji=False)
