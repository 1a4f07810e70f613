"""What the jobs list shows of each job, read from the backends (no Textual here).

`local_rows()` reads this machine's job records, `azure_rows()` the workspace's newest jobs
(`jobs.list`), `read_progress()` their logs' ends (how far, how long, how much); all block (disk,
network): call them from a thread worker. The list shows the rows first and their progress once
read, so no job's log delays the listing. `diagnosis()` is the
one place the list asks the doctor (`tui.logs.doctor.diagnose`), so a change to the doctor's
API is a change here only.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from screens.jobs_progress import JobProgress, ProgressReader, hourly_price
from tui.backends.base import JobHandle, JobState, JobStatus

DOCTOR_TAIL = 256 << 10
"""Bytes read from the end of each log for a diagnosis (a failure is at the end)."""
DOCTOR_READS = 16
"""Logs read at once for a diagnosis (a 1,024-rank job on Azure: 16 requests in flight)."""
AZURE_READS = 8
"""Azure ML jobs whose status and main log are read at once for their progress."""


@dataclass(frozen=True)
class JobRow:
    """One job as the list shows it."""

    backend: Any
    """The backend that owns it (its status, logs and cancel)."""
    handle: JobHandle
    where: str
    """`here` (this machine) or `azure`."""
    state: JobState
    status: str
    """The state in full: `Failed: rank 2 exited with code 1`, Azure's word when it says more."""
    created_at: datetime | None
    shape: str
    """`2 × 2` (nodes × processes per node), or "" when the listing does not say."""
    what: str
    """What the job is: the plan's summary here, display name and experiment on Azure."""
    script: str = ""
    """The script it runs (`train.py`), so two jobs of one shape are told apart; "" when the
    listing does not say (Azure's)."""
    progress: JobProgress | None = None
    """How far, how long, how much (None: not read)."""
    hourly: float | None = None
    """Its nodes' price per hour: the plan's VM size here, its cluster's on Azure ML (None: no
    size, or no price for it)."""
    full_status: JobStatus | None = None
    """The backend's whole status where the listing read it (this machine's jobs); None where
    the listing says the state only (Azure ML's)."""

    @property
    def key(self) -> str:
        """Unique across backends (a local and an Azure job may share a name)."""
        return f"{self.where}/{self.handle.name}"


Known = dict[str, tuple[str, str, str, float | None]]
"""Each local job's shape, summary, script and price per hour, which never change."""


def local_rows(
    backend: Any, known: Known | None = None, reader: ProgressReader | None = None
) -> list[JobRow]:
    """Every job on this machine, newest first (job records: a few file reads each). `known`
    keeps each job's shape, summary, script and price, so a record is read once for them;
    `reader`, where given, reads each job's progress too (its log: only what it gained)."""
    known = {} if known is None else known
    rows = []
    for handle in backend.jobs():
        status = backend.status(handle)
        if handle.name not in known:
            info = backend.info(handle)
            spec = (info.get("plan") or {}).get("spec") or {}
            hourly = hourly_price(spec.get("sku"), spec.get("nodes"))
            summary = str(info.get("summary") or "")
            known[handle.name] = (_local_shape(spec), summary, _script(spec), hourly)
        shape, what, script, hourly = known[handle.name]
        rows.append(
            JobRow(
                backend,
                handle,
                "here",
                status.state,
                status.summary(),
                status.created_at,
                shape,
                what,
                script,
                hourly=hourly,
                full_status=status,
            )
        )
    return rows if reader is None else read_progress(rows, reader)


def _script(spec: dict[str, Any]) -> str:
    """The script a job's spec runs: its `script`, or the first `.py` its own command names."""
    command = spec.get("command")
    if isinstance(command, str) and command.strip():
        words = command.split()
        return next((w for w in words if w.endswith(".py")), words[0])
    return str(spec.get("script") or "")


def _local_shape(spec: dict[str, Any]) -> str:
    nodes, per = spec.get("nodes"), spec.get("gpus_per_node")
    if not isinstance(nodes, int) or not isinstance(per, int):
        return ""
    servers = spec.get("parameter_servers") or 0
    return f"{nodes} × {per}" + (f" + {servers} ps" if servers else "")


def azure_rows(backend: Any, reader: ProgressReader | None = None) -> tuple[list[JobRow], str]:
    """The workspace's newest jobs, and what the listing says it left out ("" if nothing);
    each priced at its cluster's VM size (`compute_size`: once per cluster). With `reader`,
    each job's progress too (`read_progress`)."""
    recent = backend.recent_jobs()
    sizes: dict[str, str | None] = {}
    rows = [
        JobRow(
            backend,
            job.handle,
            "azure",
            job.state,
            job.state.value
            if job.azure_status in ("", job.state.value)
            else f"{job.state.value}: {job.azure_status}",
            job.created_at,
            "",
            " · ".join(x for x in (job.display_name, job.experiment) if x),
            hourly=hourly_price(_size(backend, getattr(job, "compute", ""), sizes), job.nodes),
        )
        for job in recent
    ]
    note = recent.note() if hasattr(recent, "note") else ""
    return (rows if reader is None else read_progress(rows, reader)), note


def _size(backend: Any, compute: str, sizes: dict[str, str | None]) -> str | None:
    """Cluster `compute`'s VM size, asked once per listing (`sizes`) and kept by the backend;
    None where it has none or it cannot be read (no price then, never a failed listing)."""
    if not compute or not hasattr(backend, "compute_size"):
        return None
    if compute not in sizes:
        try:
            sizes[compute] = backend.compute_size(compute)
        except Exception:
            sizes[compute] = None
    return sizes[compute]


def read_progress(rows: list[JobRow], reader: ProgressReader) -> list[JobRow]:
    """`rows` with each job's progress read: this machine's logs one after another (file
    reads), Azure ML's `AZURE_READS` at a time (a log's end each, an ended job's once)."""

    def read(row: JobRow) -> JobRow:
        progress = reader.read(
            row.key, row.backend, row.handle, row.state, row.hourly, row.full_status
        )
        return replace(row, progress=progress)

    if not any(row.where == "azure" for row in rows):
        return [read(row) for row in rows]
    with ThreadPoolExecutor(AZURE_READS) as pool:
        return list(pool.map(read, rows))


def last_progress(rows: list[JobRow], reader: ProgressReader) -> list[JobRow]:
    """`rows` with each job's progress as `reader` last read it (nothing read now)."""
    return [replace(row, progress=reader.known(row.key)) for row in rows]


def progress_changed(before: list[JobRow], after: list[JobRow]) -> bool:
    """Whether `after` shows any job's progress otherwise than `before` does."""

    def texts(row: JobRow) -> tuple[str, ...]:
        return row.progress.texts() if row.progress is not None else ()

    return [texts(row) for row in before] != [texts(row) for row in after]


def in_app_words(err: Exception) -> str:
    """An Azure ML backend's error as the app says it: where the CLI's flags are the way out,
    the app's own (the Submit step's workspace choice)."""
    from tui.backends.azureml.workspace import NO_WORKSPACE

    if str(err) == NO_WORKSPACE:
        return (
            "no workspace chosen yet: choose one on the Submit step (Azure ML), which remembers "
            "it, or put the workspace's config.json (Azure portal → the workspace → Download "
            "config.json) in this folder"
        )
    return str(err)


def age(created: datetime | None, now: datetime | None = None) -> str:
    """How long ago the job was made, as k9s says it: `42s`, `7m`, `3h`, `12d`."""
    if created is None:
        return ""
    now = now or datetime.now(timezone.utc)
    if created.tzinfo is None:
        created = created.astimezone()
    seconds = max(0, int((now - created).total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def one_line(diagnosis: Any) -> str:
    """The doctor's answer in the list's words: `rank 2: the training script raised …`, or
    `no failure found, not proven healthy` (never a bare cause id)."""
    return diagnosis.one_line()


async def diagnosis(
    backend: Any,
    handle: JobHandle,
    failed: bool,
    succeeded: bool = False,
    running: bool = False,
    seen: dict[str, Any] | None = None,
) -> Any:
    """The doctor's `Diagnosis` of a job: every log's end read (`DOCTOR_TAIL`), then diagnosed
    in a thread. Logs that cannot be read now are left out. `succeeded` (the backend recorded
    exit status 0) and `running` are what may prove it healthy; the job's status, asked again,
    says them afresh where it can be read, and brings the service's own error (its code and
    message), which the doctor reads beside the logs as `doctor --target azure` does. `seen`,
    if given, is handed what was read: the `status` and the `logs` (name → text)."""
    from tui.logs.doctor import diagnose
    from tui.logs.sources import read_tail

    service_error = None
    try:  # a finished Azure job's status is kept by its backend; a local one is a file read
        status = await asyncio.to_thread(backend.status, handle)
    except Exception:  # the row's state then stands
        status = None
    if status is not None:
        failed = status.state is JobState.FAILED
        succeeded = status.state is JobState.COMPLETED
        running = status.state is JobState.RUNNING
        service_error = getattr(status, "error", None)
    sources = await asyncio.to_thread(backend.log_sources, handle)
    gate = asyncio.Semaphore(DOCTOR_READS)

    async def tail(name: str) -> tuple[str, str]:
        source = sources[name]
        async with gate:
            try:
                _, data = await read_tail(source, DOCTOR_TAIL)
            except Exception:  # an unreadable log is left out, never fatal
                return name, ""
            finally:
                close = getattr(source, "aclose", None)
                if close is not None:
                    await close()
        return name, data.decode("utf-8", "replace")

    texts = dict(await asyncio.gather(*(tail(name) for name in sources)))
    mtimes = {}
    for name, source in sources.items():
        path = getattr(source, "path", None)
        if isinstance(path, Path) and path.exists():
            mtimes[name] = path.stat().st_mtime
    logs = {name: text for name, text in texts.items() if text}
    local = bool(sources) and len(mtimes) == len(sources)
    if seen is not None:
        seen.update(status=status, logs=logs, local=local)
    return await asyncio.to_thread(
        diagnose,
        logs,
        mtimes,
        failed=failed,
        local=local,
        succeeded=succeeded,
        running=running,
        service_error=service_error,
    )
