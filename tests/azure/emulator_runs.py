"""What the workspace emulator does with a job it accepted: run it here, publish its logs.

The job that runs is rebuilt from the PUT body alone (command, distribution, instance count,
environment variables, the code the body's `codeId` names), through dtrain-tui's own job-YAML
importer and `plan()` for the local target, and started with a real `LocalBackend`. A pump
copies every log file the local job writes into an Azurite append blob as it grows, under the
name Azure ML gives it (`ExperimentRun/dcid.<job>/user_logs/…`); the run's state follows the local
job's, with `Finalizing` until the last bytes are published.
"""

from __future__ import annotations

import contextlib
import re
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from azure.core.exceptions import ResourceExistsError

from tests.logs.azurite import Azurite
from tui.backends.base import JobHandle, JobState
from tui.backends.local import LocalBackend
from tui.planning.job_import import spec_from_job
from tui.planning.plan import Target, plan

CONTAINER = "azureml"
CHUNK = 4 << 20  # an append block holds at most 4 MiB
_PROCESS_LOG = re.compile(r"^(user_logs/std_log_process_)(\d+)(\.txt)$")


def local_spec(props: dict[str, Any], code: Path):
    """The JobSpec the PUT body describes, with its code in `code` (the emulator's copy)."""
    dist = dict(props.get("distribution") or {"distributionType": "PyTorch"})
    kind = dist.get("distributionType", "PyTorch")
    if kind == "TensorFlow":
        distribution = {
            "type": "tensorflow",
            "worker_count": dist.get("workerCount"),
            "parameter_server_count": dist.get("parameterServerCount") or 0,
        }
    else:
        distribution = {
            "type": kind.lower(),
            "process_count_per_instance": dist.get("processCountPerInstance") or 1,
        }
    job = {
        "command": props["command"],
        "distribution": distribution,
        "resources": {"instance_count": (props.get("resources") or {}).get("instanceCount", 1)},
        "environment_variables": props.get("environmentVariables") or {},
        "code": str(code),
    }
    return spec_from_job(job, code)


class EmulatedRun:
    """One accepted job: its local run, its published logs and its Azure ML state."""

    def __init__(
        self,
        name: str,
        props: dict[str, Any],
        *,
        azurite: Azurite,
        backend: LocalBackend | None,
        code: Path | None,
        pad: int = 0,
        poll: float = 0.05,
        legacy: bool = False,
    ) -> None:
        self.name = name
        self.props = props
        self.created = datetime.now(timezone.utc)
        self.azurite = azurite
        self.pad = pad
        self.poll = poll
        self.legacy = legacy
        """Publish logs under the older runtime's names (`azureml-logs/70_driver_log_N.txt`)."""
        self.forced: str | None = None
        """A status set by the test (`WorkspaceEmulator.set_status`), over the local job's."""
        self.local: JobHandle | None = None
        self.backend = backend
        self.error = ""
        self.error_body: dict[str, Any] | None = None
        """The run details' whole `error` when a test set one (`WorkspaceEmulator.fail_with`)."""
        self.cancel_requested = False
        self.canceled_event = threading.Event()
        self._status = "NotStarted"
        self._published: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._drained = threading.Event()
        self._pump: threading.Thread | None = None
        if backend is not None:
            if code is None:
                self._status, self.error = "Failed", "the emulator has no code for this job"
            else:
                spec = local_spec(props, code)
                self.local = backend.submit(plan(spec, Target.for_spec("local", spec)))
                self._status = "Queued"
                self._pump = threading.Thread(target=self._pump_logs, name=f"pump-{name}")
                self._pump.daemon = True
                self._pump.start()

    @property
    def blob_prefix(self) -> str:
        return f"ExperimentRun/dcid.{self.name}"

    # ---- state --------------------------------------------------------------------------

    def status(self) -> str:
        """Azure ML's word for where the run is."""
        if self.forced is not None:
            return self.forced
        if self.local is None or self.backend is None:
            return self._status
        local = self.backend.status(self.local)
        if local.state.is_terminal:
            if not self._drained.is_set():
                return "Finalizing"
            if local.state is JobState.FAILED and not self.error:
                self.error = self._error_message(local)
            return local.state.value
        if self.cancel_requested:
            return "CancelRequested"
        return {
            JobState.QUEUED: "Queued",
            JobState.STARTING: "Starting",
            JobState.RUNNING: "Running",
        }[local.state]

    def times(self) -> tuple[datetime | None, datetime | None]:
        if self.local is None or self.backend is None:
            return None, None
        local = self.backend.status(self.local)
        ended = local.ended_at if self._drained.is_set() else None
        return local.started_at, ended

    def cancel(self, delay: float = 0.0) -> None:
        """Stop the local job (blocks until its processes are gone), then publish the rest.

        For `delay` seconds first the job only says CancelRequested, as real jobs do a while.
        """
        self.cancel_requested = True
        if self.local is None or self.backend is None:
            self._status = "CancelRequested"
        self._stop.wait(delay)
        if self.local is not None and self.backend is not None:
            self.backend.cancel(self.local)
            self._drained.wait(30)
        else:
            self._status = "Canceled"
        self.canceled_event.set()

    def stop(self) -> None:
        """Stop the pump and whatever still runs (the emulator is shutting down)."""
        running = self.local is not None and self.backend is not None
        if running and not self.backend.status(self.local).is_terminal:
            self.backend.cancel(self.local)
        self._stop.set()
        if self._pump is not None:
            self._pump.join(10)

    def _error_message(self, local: Any) -> str:
        """Azure ML's wording for a failed process (as far as public run details show it)."""
        log = self.blob_name(local.failed_log or "user_logs/std_log.txt")
        last = local.last_lines[-1] if local.last_lines else ""
        code = local.exit_code if local.exit_code is not None else 1
        return (
            f"Execution failed. User process 'python' exited with status code {code}. "
            f"Please check log file '{log}' for error details. Error: {last}"
        )

    # ---- logs ---------------------------------------------------------------------------

    def blob_name(self, relative: str) -> str:
        """The log's name on Azure ML: the local name, rank zero-padded to `pad` digits."""
        m = _PROCESS_LOG.match(relative)
        if self.legacy and m:
            return f"azureml-logs/70_driver_log_{int(m.group(2))}.txt"
        if self.legacy and relative == "user_logs/std_log.txt":
            return "azureml-logs/70_driver_log.txt"
        if m and self.pad:
            return f"{m.group(1)}{int(m.group(2)):0{self.pad}d}{m.group(3)}"
        return relative

    def log_blobs(self) -> list[str]:
        """The names of the logs published so far."""
        with self._lock:
            return sorted(self._published)

    def _pump_logs(self) -> None:
        assert self.local is not None and self.backend is not None
        folder = Path(self.local.location)
        container = self.azurite.service().get_container_client(CONTAINER)
        try:
            while not self._stop.is_set():
                finished = self.backend.status(self.local).is_terminal
                self._publish(folder, container)
                if finished:
                    self._publish(folder, container)  # whatever the last moment wrote
                    self._drained.set()
                    return
                self._stop.wait(self.poll)
        finally:
            self._drained.set()

    def _publish(self, folder: Path, container: Any) -> None:
        for path in sorted(folder.glob("*_logs/**/*")):
            if not path.is_file():
                continue
            name = self.blob_name(path.relative_to(folder).as_posix())
            with self._lock:
                offset = self._published.get(name)
            blob = container.get_blob_client(f"{self.blob_prefix}/{name}")
            if offset is None:
                with contextlib.suppress(ResourceExistsError):
                    blob.create_append_blob()
                offset = 0
            with path.open("rb") as f:
                f.seek(offset)
                while data := f.read(CHUNK):
                    blob.append_block(data, length=len(data))
                    offset += len(data)
            with self._lock:
                self._published[name] = offset
