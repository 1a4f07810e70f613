"""The folder of one local job, laid out like an Azure ML run's outputs.

```
<root>/<job name>/
  job.json                     spec, plan, what to launch, state, timestamps, pids
  supervisor.pid               "<pid> <start time>" of the supervisor (written by submit only)
  cancel.request               present once someone asked to cancel
  keep.request                 present once the app that submitted it let it outlive the app
  code/                        a snapshot of the spec's code folder: node 0's working dir
  nodes/<n>/code/              node n's own copy (n >= 1), as Azure ML gives each node its own
  user_logs/std_log_process_<rank>.txt   (tasks: std_log_node_<nn>_<worker|ps>.txt)
  user_logs/mpi_log.txt        mpirun's own output (MPI jobs)
  system_logs/launcher.txt     what the supervisor did, and its own errors
  .launcher/                   launcher streams before they are split per rank
```

`job.json` is only ever replaced whole (`tui.core.files`: a temporary file, fsync, rename), so a
reader never sees half of it; it is created 0600 (it holds the job's environment). One that is
damaged anyway (a disk that failed, a hand edit) raises `DamagedRecord` when read. After
`submit` writes it the supervisor is its only writer, until the supervisor is gone; then
whoever finds the job orphaned writes the final state.
Stdlib only: the supervisor imports this.
"""

from __future__ import annotations

import contextlib
import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tui.core.files import PRIVATE, atomic_file

JOB_FILE = "job.json"
LAUNCHER_LOG = "system_logs/launcher.txt"
MPI_LOG = "user_logs/mpi_log.txt"


_STATES = ("Queued", "Starting", "Running", "Completed", "Failed", "Canceled")


class DamagedRecord(ValueError):
    """A `job.json` that is not a job record (truncated, empty, `{}`); says what is wrong."""


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class JobDir:
    """Paths and state files of one local job."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def job_file(self) -> Path:
        return self.path / JOB_FILE

    @property
    def supervisor_file(self) -> Path:
        return self.path / "supervisor.pid"

    @property
    def cancel_file(self) -> Path:
        return self.path / "cancel.request"

    @property
    def keep_file(self) -> Path:
        return self.path / "keep.request"

    @property
    def code_dir(self) -> Path:
        return self.path / "code"

    def node_code_dir(self, node: int | None) -> Path:
        """Node `node`'s working folder: its own copy of the code, as on Azure ML, so a file one
        node writes there is not on the others."""
        return node_code_dir(self.path, node)

    @property
    def work_dir(self) -> Path:
        return self.path / ".launcher"

    def file(self, relative: str) -> Path:
        return self.path / relative

    def read(self) -> dict[str, Any]:
        """The record; FileNotFoundError when there is none, DamagedRecord when it is broken."""
        raw = self.job_file.read_bytes()
        if not raw.strip():
            raise DamagedRecord("job.json is empty")
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as err:
            raise DamagedRecord(f"job.json is not valid JSON: {err}") from None
        if not isinstance(data, dict):
            raise DamagedRecord("job.json does not hold a job record")
        missing = [k for k in ("state", "rank_logs") if k not in data]
        if missing:
            raise DamagedRecord(f"job.json has no {' or '.join(missing)}")
        if data["state"] not in _STATES or not isinstance(data["rank_logs"], dict):
            raise DamagedRecord(f"job.json has an unknown state {data['state']!r}")
        return data

    def write(self, data: dict[str, Any]) -> None:
        text = json.dumps(data, indent=1, ensure_ascii=False)
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:  # a byte that was not UTF-8 (a lone surrogate): \u escapes
            raw = json.dumps(data, indent=1).encode("ascii")  # keep it exactly
        with atomic_file(self.job_file, PRIVATE, binary=True) as f:
            f.write(raw)

    def update(self, **changes: Any) -> dict[str, Any]:
        data = self.read()
        data.update(changes)
        self.write(data)
        return data

    def supervisor(self) -> tuple[int, str | None] | None:
        """The supervisor's pid and start time, or None before submit has recorded them."""
        try:
            pid, _, start = self.supervisor_file.read_text().strip().partition(" ")
            return int(pid), start or None
        except (OSError, ValueError):
            return None

    def log(self, message: str) -> None:
        """One timestamped line in system_logs/launcher.txt."""
        path = self.file(LAUNCHER_LOG)
        with contextlib.suppress(OSError):  # a full disk must not turn a log line into a crash
            # Not the job folder itself: one that was deleted stays deleted (its job is stopped).
            path.parent.mkdir(exist_ok=True)
            # surrogateescape: a byte that is not UTF-8 (in a path, an argument) goes as it came
            with path.open("a", encoding="utf-8", errors="surrogateescape") as f:
                f.write(f"{now_iso()} {message}\n")


def tail_lines(path: Path, count: int = 20, max_bytes: int = 64 << 10) -> list[str]:
    """The last `count` lines of a log, a progress bar's `\\r` updates collapsed to the last one."""
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            data = f.read()
    except OSError:
        return []
    text = data.decode("utf-8", "replace")
    lines = [line.rstrip("\r").rsplit("\r", 1)[-1] for line in text.split("\n")]
    if size > max_bytes and lines:
        lines = lines[1:]  # the first one is probably cut
    while lines and not lines[-1].strip():
        lines.pop()
    return lines[-count:]


def node_code_dir(job: Path, node: int | None) -> Path:
    """Where node `node` of the job in folder `job` runs: node 0 in `code/`, node n in
    `nodes/<n>/code/`."""
    return job / "code" if not node else job / "nodes" / str(node) / "code"
