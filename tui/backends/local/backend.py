"""`LocalBackend`: rehearse a distributed job on this machine with the real launchers.

`submit(plan)` writes the job folder (see `jobdir`) and starts a detached supervisor
(`supervisor`) that runs the plan's processes with exactly the plan's environment per rank
(`launch`); it returns at once. Status, logs and cancel work from any process that can
read the job folder, so a restarted app finds its jobs again, and a job whose supervisor died
is marked Failed and whatever it left running is stopped.

```python
backend = LocalBackend()                       # jobs under state_dir()/jobs
job = backend.submit(plan(spec, Target.for_spec("local", spec)))
backend.status(job).state                      # JobState.RUNNING …
backend.log_sources(job)["user_logs/std_log_process_0.txt"]   # a FileSource to follow
backend.cancel(job)                            # returns once every process is gone
```
POSIX only (process groups, signals).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tui.backends.base import BackendError, JobHandle, JobNotFound, JobState, JobStatus
from tui.backends.local.jobdir import LAUNCHER_LOG, MPI_LOG, DamagedRecord, JobDir, now_iso
from tui.backends.local.launch import build_launches
from tui.backends.local.procs import is_alive, signal_process, start_time, visible_gpus
from tui.core.dirs import state_dir
from tui.core.files import private_dir, why
from tui.core.job_checks import is_remote
from tui.core.plan_types import ConfigFileProblem
from tui.logs.sources import FileSource
from tui.planning.export import to_json
from tui.planning.plan import LaunchPlan, describe

QUEUED_TIMEOUT = 30.0
"""A job still Queued with no supervisor after this many seconds is taken as orphaned."""
_PACKAGE_ROOT = Path(__file__).resolve().parents[3]
"""The folder that holds `tui` (parents[2] was `tui` itself: the supervisor ran whichever
dtrain-tui was installed, not this one)."""


def _parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:32] or "job"


_SHAPE = re.compile(r"(?<![0-9])[0-9]+x[0-9]+(?![0-9])")


def job_base(plan: LaunchPlan) -> str:
    """A job's name before its time stamp, with the shape it really has (`ddp-2x2`): a preset's
    display name says the shape it was made for (`ddp-2x8`), not the one this run uses."""
    spec = plan.spec
    shape = f"{plan.instance_count}x{plan.workers_per_node}"
    base = _slug(spec.display_name or spec.experiment or spec.framework)
    if _SHAPE.search(base):
        return _SHAPE.sub(shape, base, count=1)
    return f"{base[:24]}-{shape}"


class LocalBackend:
    """Runs plans made for the local target on this machine; keeps every job in `root`.

    `detach=False` (the app) ties each job to this process: when it exits or is killed, its
    jobs are canceled. `detach=True` (`dtrain-tui submit` without `--wait`) lets jobs outlive
    it, like a cloud job; `dtrain-tui cancel` stops them. `grace` is how long the other ranks
    get after SIGTERM when a rank fails or the job is canceled. `gpus` overrides GPU detection
    (CUDA_VISIBLE_DEVICES values; [] for none). A new backend first marks jobs whose supervisor
    is gone as Failed and stops their leftover processes.
    """

    name = "local"

    def __init__(
        self,
        root: Path | None = None,
        *,
        detach: bool = False,
        grace: float = 3.0,
        gpus: Sequence[str] | None = None,
    ) -> None:
        # Absolute: the supervisor and the launchers run in folders of the job's own, where a
        # relative root (DTRAIN_TUI_HOME=home) named nothing and every job failed at its start.
        self.root = (Path(root) if root is not None else state_dir() / "jobs").absolute()
        self.detach = detach
        self.grace = grace
        self.gpus = list(gpus) if gpus is not None else None
        self._supervisors: dict[str, subprocess.Popen[bytes]] = {}
        self.damaged: dict[str, str] = {}
        """Job name → why its record cannot be read (such a job is shown as Unknown)."""
        self.recovered = self.recover()
        """Names of jobs found orphaned (and marked Failed) when this backend started."""

    # ---- the protocol -------------------------------------------------------------------

    def submit(self, plan: LaunchPlan) -> JobHandle:
        """Write the job folder, start its supervisor, return; the job runs in the background."""
        spec = plan.spec
        code = spec.code
        if code is not None:
            if is_remote(code):
                raise BackendError(
                    f"code: {code} is not on this machine; the local backend runs a local folder"
                )
            code = str(Path(code).resolve())
            if not Path(code).exists():
                raise BackendError(f"code: {code} does not exist")
        if plan.config_file is not None:  # what the preview showed is what the command reads
            try:
                plan.config_file.write(Path(code or "."))
            except ConfigFileProblem as err:
                raise BackendError(str(err)) from None
        try:
            private_dir(self.root)  # job records hold the job's environment: owner only
            jd = self._new_job_dir(job_base(plan))
        except OSError as err:
            raise BackendError(f"cannot create a job folder in {self.root}: {why(err)}") from None
        try:
            return self._start(plan, jd, code)
        except BaseException as err:
            import shutil

            shutil.rmtree(jd.path, ignore_errors=True)
            if isinstance(err, OSError):  # a full disk, a read-only state folder
                problem = f"cannot write job {jd.name} in {self.root}: {why(err)}"
                raise BackendError(problem) from None
            raise

    def _start(self, plan: LaunchPlan, jd: JobDir, code: str | None) -> JobHandle:
        """Write the job's record and logs into `jd`, then start its supervisor."""
        launches = build_launches(
            plan,
            jd.path,
            bin_dir=Path(sys.executable).parent,
            gpus=self.gpus if self.gpus is not None else visible_gpus(),
            environ=dict(os.environ),
        )
        rank_logs = {str(r.rank): r.log_file for r in plan.ranks}
        data: dict[str, Any] = {
            "name": jd.name,
            "backend": self.name,
            "state": JobState.QUEUED.value,
            "message": "",
            "created_at": now_iso(),
            "started_at": None,
            "ended_at": None,
            "failed_rank": None,
            "exit_code": None,
            "failed_log": None,
            "last_lines": [],
            "summary": describe(plan),
            "world_size": plan.world_size,
            "code": code,
            "grace": self.grace,
            "rank_logs": rank_logs,
            **launches.as_json(),
            "processes": [],
            "plan": json.loads(to_json(plan)),
        }
        for d in ("user_logs", "system_logs"):
            (jd.path / d).mkdir()
        for log in rank_logs.values():
            jd.file(log).touch()
        if plan.distribution.type == "mpi":
            jd.file(MPI_LOG).touch()
        jd.write(data)
        argv = [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, sys.argv.pop(1)); "
            "from tui.backends.local.supervisor import main; sys.exit(main())",
            str(_PACKAGE_ROOT),
            str(jd.path),
        ]
        if not self.detach:
            argv += ["--owner", str(os.getpid())]
        with jd.file(LAUNCHER_LOG).open("ab") as log:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=jd.path,
                env=dict(os.environ),  # what Python sees, even if a C library called setenv()
                start_new_session=True,
            )
        # Waited for as it ends, so it is not left a zombie (it exits after recording the job's
        # end, when nothing here may ask about the job again).
        threading.Thread(target=proc.wait, name=f"reap {jd.name}", daemon=True).start()
        jd.supervisor_file.write_text(f"{proc.pid} {start_time(proc.pid) or ''}")
        self._supervisors[jd.name] = proc
        return self._handle(jd)

    def status(self, job: JobHandle) -> JobStatus:
        jd = self._dir(job)
        data = self._read(jd)
        if not JobState(data["state"]).is_terminal:
            data = self._check_orphan(jd, data)
        return _status(data)

    def log_sources(self, job: JobHandle) -> dict[str, FileSource]:
        """The rank logs in rank order, then every other file under user_logs/ and system_logs/."""
        jd = self._dir(job)
        data = self._read(jd)
        names = [data["rank_logs"][r] for r in sorted(data["rank_logs"], key=int)]
        for folder in ("user_logs", "system_logs"):
            for path in sorted((jd.path / folder).rglob("*")):
                name = path.relative_to(jd.path).as_posix()
                if path.is_file() and name not in names:
                    names.append(name)
        return {name: FileSource(jd.file(name), name=name) for name in names}

    def cancel(self, job: JobHandle, timeout: float = 10.0) -> str | None:
        """Stop every process of the job, then mark it Canceled; returns when they are gone.

        Stopping comes first and never depends on writing: a state folder that cannot be
        written (read-only, full) must not leave the job running. What could not be recorded
        is returned as a warning (None when all was recorded)."""
        jd = self._dir(job)
        if JobState(self._read(jd)["state"]).is_terminal:
            return None
        try:
            jd.cancel_file.touch()  # tells the supervisor (and a later reader) it was a cancel
        except OSError as err:
            unflagged: OSError | None = err
        else:
            unflagged = None
        sup = jd.supervisor()
        if sup is not None:
            signal_process(sup[0], sup[1], signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._reap_supervisors()
            data = self._read(jd)
            if JobState(data["state"]).is_terminal:
                return None
            if sup is None or not is_alive(*sup):
                break  # it stopped the processes but could not record it: done below
            time.sleep(0.05)
        # The supervisor did not answer, or could not write: stop what it recorded ourselves.
        final = self._stop_orphan(jd, self._read(jd), "canceled", canceled=True)
        if unflagged is None and JobState(self._read(jd)["state"]).is_terminal:
            return None
        reason = why(unflagged) if unflagged else final["message"].partition("not recorded: ")[2]
        return (
            f"job {jd.name}: its processes are stopped, but its folder {jd.path} cannot be "
            f"written ({reason.rstrip(')')}), so it is not recorded as Canceled"
        )

    # ---- more than the protocol ---------------------------------------------------------

    def keep(self, job: JobHandle) -> None:
        """Let `job` outlive this process (the app quits, the job runs on, detached)."""
        self._dir(job).keep_file.touch()

    def ask_stacks(self, job: JobHandle, wait: float = 2.5) -> tuple[int, dict[str, str]]:
        """SIGUSR1 to every rank that armed dtrain-tui's stack dumper (`stacks`): (ranks asked,
        {rank log: what it wrote since}); (0, {}) once the job's processes are gone."""
        from tui.backends.local.stacks import ask

        jd = self._dir(job)
        sup = jd.supervisor()
        if sup is None or not is_alive(*sup):
            return 0, {}
        logs = {name: jd.file(name) for name in self._read(jd).get("rank_logs", {}).values()}
        return ask(sup[0], logs, wait)

    def jobs(self) -> list[JobHandle]:
        """Every job in `root`, newest first."""
        if not self.root.is_dir():
            return []
        found = [JobDir(p) for p in self.root.iterdir() if (p / "job.json").is_file()]
        found.sort(key=lambda jd: self._read(jd).get("created_at") or "", reverse=True)
        return [self._handle(jd) for jd in found]

    def handle(self, name: str) -> JobHandle:
        """The job called `name`; raises JobNotFound."""
        jd = JobDir(self.root / name)
        if "/" in name or not jd.job_file.is_file():
            raise JobNotFound(f"no local job named {name!r} in {self.root}")
        return self._handle(jd)

    def info(self, job: JobHandle) -> dict[str, Any]:
        """The job's record (`job.json`): summary, plan, launches, processes, state."""
        return self._read(self._dir(job))

    def wait(self, job: JobHandle, timeout: float | None = None, poll: float = 0.1) -> JobStatus:
        """Block until the job ends (or `timeout` seconds pass); returns the last status."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            status = self.status(job)
            if status.is_terminal or (deadline is not None and time.monotonic() >= deadline):
                return status
            self._reap_supervisors()
            time.sleep(poll)

    def recover(self) -> list[str]:
        """Mark jobs whose supervisor is gone as Failed and stop what they left running."""
        found = []
        for job in self.jobs():
            jd = self._dir(job)
            data = self._read(jd)
            if not JobState(data["state"]).is_terminal:
                after = self._check_orphan(jd, data)
                if after is not data and JobState(after["state"]).is_terminal:
                    found.append(job.name)
        return found

    # ---- inside -------------------------------------------------------------------------

    def _new_job_dir(self, base: str) -> JobDir:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        for _ in range(20):
            path = self.root / f"{_slug(base)}-{stamp}-{secrets.token_hex(2)}"
            try:
                path.mkdir(mode=0o700)  # its code copy, logs and record: the owner's only
            except FileExistsError:
                continue
            return JobDir(path)
        raise BackendError(f"could not create a job folder in {self.root}")

    def _handle(self, jd: JobDir) -> JobHandle:
        return JobHandle(self.name, jd.name, str(jd.path))

    def _dir(self, job: JobHandle) -> JobDir:
        if job.backend != self.name:
            raise BackendError(f"job {job.name} belongs to the {job.backend} backend, not local")
        jd = JobDir(job.location or self.root / job.name)
        if not jd.job_file.is_file():
            raise JobNotFound(f"no local job named {job.name!r} (looked in {jd.path})")
        return jd

    def _read(self, jd: JobDir) -> dict[str, Any]:
        """The job's record; a damaged one reads as an Unknown job (and is noted in `damaged`)
        rather than stopping every command that lists jobs."""
        try:
            return jd.read()
        except FileNotFoundError:
            raise JobNotFound(f"no local job named {jd.name!r} (looked in {jd.path})") from None
        except (DamagedRecord, OSError) as err:
            reason = str(err) if isinstance(err, DamagedRecord) else f"cannot read it: {why(err)}"
            self.damaged[jd.name] = (
                f"job {jd.name}: its record is damaged ({reason}); it is shown as Unknown"
            )
            return {
                "name": jd.name,
                "state": JobState.UNKNOWN.value,
                "message": f"its record is damaged ({reason})",
                "rank_logs": {},
                "summary": "",
            }

    def _reap_supervisors(self) -> None:
        for name, proc in list(self._supervisors.items()):
            if proc.poll() is not None:
                del self._supervisors[name]

    def _check_orphan(self, jd: JobDir, data: dict[str, Any]) -> dict[str, Any]:
        """`data`, or the job's final record if its supervisor turned out to be gone."""
        self._reap_supervisors()
        sup = jd.supervisor()
        if sup is None:
            created = _parse_time(data.get("created_at"))
            age = (datetime.now(timezone.utc) - created).total_seconds() if created else 0.0
            if age < QUEUED_TIMEOUT:
                return data
        elif is_alive(*sup):
            return data
        data = self._read(jd)  # it may have written its final state just before exiting
        if JobState(data["state"]).is_terminal:
            return data
        pid = f"pid {sup[0]}" if sup else "never started"
        return self._stop_orphan(
            jd, data, f"its supervisor ({pid}) stopped before the job ended; the job was stopped"
        )

    def _stop_orphan(
        self, jd: JobDir, data: dict[str, Any], message: str, canceled: bool = False
    ) -> dict[str, Any]:
        """Kill what the job recorded (checking start times) and write its final state."""
        sup = jd.supervisor()
        if sup is not None:
            signal_process(sup[0], sup[1], signal.SIGKILL)
        for p in data.get("processes", []):
            signal_process(p["pid"], p.get("start"), signal.SIGKILL, group=True)
        canceled = canceled or jd.cancel_file.exists()
        state = JobState.CANCELED if canceled else JobState.FAILED
        if not canceled and _disk_full(jd.path):
            message += f"; the disk holding {jd.path} is full"
        jd.log(f"job {state.value}: {message}")
        final = {"state": state.value, "ended_at": now_iso(), "message": message}
        try:
            return jd.update(**final)
        except (OSError, DamagedRecord) as err:  # shown now, recorded once there is room
            return data | final | {"message": f"{message} (not recorded: {err})"}


def _disk_full(path: Path) -> bool:
    try:
        st = os.statvfs(path)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 << 10


def _status(data: dict[str, Any]) -> JobStatus:
    return JobStatus(
        state=JobState(data["state"]),
        created_at=_parse_time(data.get("created_at")),
        started_at=_parse_time(data.get("started_at")),
        ended_at=_parse_time(data.get("ended_at")),
        failed_rank=data.get("failed_rank"),
        exit_code=data.get("exit_code"),
        last_lines=tuple(data.get("last_lines") or ()),
        failed_log=data.get("failed_log"),
        message=data.get("message", ""),
    )
