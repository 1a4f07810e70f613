"""The process that runs one local job: `python -m tui.backends.local.supervisor JOB_DIR`.

`LocalBackend.submit` starts it detached (its own session) and returns; from then on this process
owns the job: it snapshots the code, starts every process of the plan in its own process group,
splits per-node launcher output per rank, watches exits, and writes the state to `job.json`.

- A rank that fails fails the job: the first one to exit non-zero is named with its exit code
  and last lines; the others get SIGTERM at once and SIGKILL after the grace period (what
  a per-node launcher does with its workers).
- Cancel (SIGTERM/SIGINT/SIGHUP, or the `cancel.request` file) stops everything the same way.
- With `--owner PID` the job is tied to the app that submitted it: when that process is gone
  (quit or killed) the job is canceled, so nothing outlives the app by accident. The app lets
  it go on purpose (quit → "keep it running") by writing `keep.request` before it exits.
- It is a child subreaper (Linux), so workers orphaned by a dying launcher stay its
  descendants, and every descendant is recorded (pid + start time) in `job.json`: nothing the
  job started is left running, and if this process itself is killed, the next `LocalBackend`
  finds the job orphaned and stops what it recorded.

Stdlib only, so it starts in a few tens of milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from tui.backends.base import JobState, describe_exit
from tui.backends.local.jobdir import MPI_LOG, JobDir, now_iso, tail_lines
from tui.backends.local.procs import (
    become_subreaper,
    descendants,
    proc_info,
    signal_process,
)
from tui.backends.local.streams import StreamRouter, mpirun_first_failure, root_cause

POLL = 0.05
SCAN_EVERY = 0.5
SNAPSHOT_LIMIT = 300 << 20
"""Azure ML's limit for a job's code snapshot."""
SNAPSHOT_IGNORE = frozenset(
    {
        ".git",
        ".venv",
        "venv",
        "__pycache__",
        "node_modules",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        "outputs",
    }
)


class StartProblem(Exception):
    """The job could not start; the message says why, in one line."""


class Supervisor:
    """Runs the launches written in `job.json` and keeps the job's state there."""

    def __init__(self, jd: JobDir, owner: int | None) -> None:
        self.jd = jd
        self.owner = owner
        self.data = jd.read()
        self.grace = float(self.data.get("grace", 3.0))
        self.launches: list[dict[str, Any]] = self.data["launch"]
        self.rank_logs = {int(k): v for k, v in self.data["rank_logs"].items()}
        self.started: dict[int, dict[str, Any]] = {}
        """pid → the launch it runs."""
        self.exits: dict[int, int] = {}
        """pid → exit code (negative: signal), in the order they were seen."""
        self.seen: dict[int, dict[str, Any]] = {}
        self.routers: dict[str, StreamRouter] = {
            stream: StreamRouter(
                jd.file(stream),
                {int(r): jd.file(log) for r, log in info["ranks"].items()},
                jd.file(info["default"]),
            )
            for stream, info in self.data.get("streams", {}).items()
        }
        self.stop_requested = False
        self.gone = False
        """Set when the job's folder was deleted: nothing more is written."""
        self.folder = _identity(jd.path)
        """The job folder's (device, inode): when its path names no folder or another one,
        the job was deleted (or moved) and no `cancel` can find it any more."""

    # ---- the run ------------------------------------------------------------------------

    def run(self) -> int:
        become_subreaper()
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        self._update(state=JobState.STARTING.value)
        self.jd.log(f"supervisor pid {os.getpid()}: {self.data.get('summary', '')}")
        for note in self.data.get("notes", []):
            self.jd.log(note)
        try:
            if self.jd.cancel_file.exists():
                raise StartProblem("canceled before it started")
            self._snapshot()
            self._node_copies()
            for stream in self.routers:
                self.jd.file(stream).parent.mkdir(parents=True, exist_ok=True)
            for launch in self.launches:
                self._start(launch, self.jd.node_code_dir(launch.get("node")))
        except (StartProblem, OSError) as err:  # OSError: a full disk while copying the code
            canceled = self.jd.cancel_file.exists()
            if not isinstance(err, StartProblem):
                err = StartProblem(f"could not prepare the run: {err.strerror or err}")
            self.jd.log(f"could not start: {err}")
            return self._shutdown(
                JobState.CANCELED if canceled else JobState.FAILED, "" if canceled else str(err)
            )
        except Exception as err:  # a bug: the job fails saying so, and what started is stopped
            self.jd.log("supervisor error:\n" + traceback.format_exc())
            return self._shutdown(JobState.FAILED, f"the local supervisor failed: {err}")
        self._record_processes()
        self._update(state=JobState.RUNNING.value, started_at=now_iso())
        try:
            return self._watch()
        except Exception as err:  # a bug here must not leave the job's processes running
            self.jd.log("supervisor error:\n" + traceback.format_exc())
            return self._shutdown(JobState.FAILED, f"the local supervisor failed: {err}")

    def _watch(self) -> int:
        next_scan = 0.0
        while True:
            self._reap()
            self._pump()
            if self.stop_requested or self.jd.cancel_file.exists():
                return self._shutdown(JobState.CANCELED, "")
            if (
                self.owner is not None
                and os.getppid() != self.owner
                and not self.jd.keep_file.exists()  # written before the owner exited
            ):
                return self._shutdown(
                    JobState.CANCELED, f"the app that submitted it (pid {self.owner}) exited"
                )
            failed = next(((pid, code) for pid, code in self.exits.items() if code), None)
            if failed is not None:
                launch = self.started[failed[0]]
                self.jd.log(f"{launch['label']} (pid {failed[0]}) {describe_exit(failed[1])}")
                return self._shutdown(JobState.FAILED, "", failed)
            if len(self.exits) == len(self.started):
                return self._shutdown(JobState.COMPLETED, "")
            if time.monotonic() >= next_scan:
                if _identity(self.jd.path) != self.folder:
                    return self._abandon()
                self._record_processes()
                next_scan = time.monotonic() + SCAN_EVERY
            time.sleep(POLL)

    def _on_signal(self, signum: int, _frame: object) -> None:
        self.stop_requested = True

    # ---- starting -----------------------------------------------------------------------

    def _snapshot(self) -> Path:
        """A copy of the code folder to run in, as Azure ML snapshots `code:` before a job."""
        target = self.jd.code_dir
        code = self.data.get("code")
        if code is None:
            target.mkdir(exist_ok=True)
            return target
        src = Path(code)
        if src.is_file():
            target.mkdir(exist_ok=True)
            shutil.copy2(src, target / src.name)
            return target
        if not src.is_dir():
            raise StartProblem(f"code: {src} is not a folder")
        job = self.jd.path.resolve()

        def ignore(folder: str, names: list[str]) -> set[str]:
            skip = {n for n in names if n in SNAPSHOT_IGNORE}
            for n in names:  # never copy the job folder into itself
                with contextlib.suppress(OSError):
                    if job.is_relative_to(Path(folder, n).resolve()):
                        skip.add(n)
            return skip

        size = 0
        for folder, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if d not in ignore(folder, dirs)]
            for f in files:
                with contextlib.suppress(OSError):
                    size += os.lstat(os.path.join(folder, f)).st_size
            if size > SNAPSHOT_LIMIT:
                raise StartProblem(
                    f"code: {src} holds more than {SNAPSHOT_LIMIT >> 20} MB (Azure ML's snapshot "
                    "limit); move data out of the code folder and read it as an input"
                )
        shutil.copytree(src, target, symlinks=True, ignore=ignore, dirs_exist_ok=True)
        return target

    def _node_copies(self) -> None:
        """Every simulated node past the first gets its own copy of the snapshot, as each Azure
        ML node runs in its own: what one node writes into its working folder (data only global
        rank 0 downloaded, a checkpoint) is not on the others, here as there."""
        for node in range(1, int(self.data.get("nodes", 1))):
            target = self.jd.node_code_dir(node)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(self.jd.code_dir, target, symlinks=True, dirs_exist_ok=True)

    def _start(self, launch: dict[str, Any], cwd: Path) -> None:
        log = self.jd.file(launch["log"])
        log.parent.mkdir(parents=True, exist_ok=True)
        # As bytes, encoded here: Popen encodes str with the locale's codec, which under
        # `LC_ALL=C` without UTF-8 mode is ASCII and killed this process on the first `é`.
        env = {**os.environb, **{_utf8(k): _utf8(v) for k, v in launch["env"].items()}}
        inherited = os.environb.get(b"PYTHONPATH")
        if inherited and "PYTHONPATH" in launch["env"]:  # the plan's first, then the shell's
            env[b"PYTHONPATH"] = env[b"PYTHONPATH"] + os.pathsep.encode() + inherited
        try:
            with log.open("ab") as out:
                proc = subprocess.Popen(
                    [_utf8(arg) for arg in launch["argv"]],
                    env=env,
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
        except OSError as err:
            raise StartProblem(
                f"{launch['label']}: cannot start {launch['argv'][0]}: {err}"
            ) from None
        self.started[proc.pid] = launch | {"popen": proc}
        self.jd.log(f"started {launch['label']}: pid {proc.pid}: {launch['argv'][-1]}")

    # ---- watching -----------------------------------------------------------------------

    def _reap(self) -> None:
        """Collect every exited child: ours, and orphans re-parented to us."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid in self.started and pid not in self.exits:
                code = os.waitstatus_to_exitcode(status)
                self.exits[pid] = code
                self.started[pid]["popen"].returncode = code

    def _pump(self, final: bool = False) -> None:
        for router in self.routers.values():
            router.pump(final)

    def _record_processes(self) -> None:
        """Remember every live descendant (pid, start time, group) so it can be stopped later."""
        new = False
        for info in descendants(os.getpid()):
            if info.pid not in self.seen:
                launch = self.started.get(info.pid)
                label = launch["label"] if launch else f"child of {info.ppid}"
                self.seen[info.pid] = {
                    "pid": info.pid,
                    "start": info.start,
                    "pgid": info.pgid,
                    "label": label,
                }
                new = True
        if new:
            self._update(processes=list(self.seen.values()))

    # ---- stopping -----------------------------------------------------------------------

    def _alive(self) -> list[dict[str, Any]]:
        self._reap()
        return [p for p in self.seen.values() if proc_info(p["pid"]) is not None]

    def _stop_everything(self) -> None:
        """SIGTERM to every process of the job, SIGKILL to whatever is left after the grace."""
        self._record_processes()
        for sig, wait in ((signal.SIGTERM, self.grace), (signal.SIGKILL, 5.0)):
            for p in self._alive():
                signal_process(p["pid"], p["start"], sig, group=True)
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                self._pump()
                self._record_processes()
                if not self._alive():
                    return
                time.sleep(POLL)
            if sig == signal.SIGTERM:
                left = ", ".join(str(p["pid"]) for p in self._alive())
                if left:
                    self.jd.log(f"still running after {self.grace:g} s, killing: {left}")

    def _abandon(self) -> int:
        """The job's folder is gone: nobody can stop the job any more (`cancel` finds no such
        job) and nothing can be recorded, so every process is stopped and nothing written (a
        write would make the folder again, holding only this job's end)."""
        for router in self.routers.values():
            router.close()
        self.routers = {}  # their logs went with the folder
        self.gone = True
        self._stop_everything()
        self._reap()
        return 1

    def _shutdown(
        self, state: JobState, message: str, failed: tuple[int, int] | None = None
    ) -> int:
        if state is not JobState.COMPLETED and self.started:
            alive = [p for p in self._alive() if p["pid"] != (failed or (0,))[0]]
            if alive:
                self.jd.log(f"stopping {len(alive)} process(es) of the job")
        self._stop_everything()
        self._reap()
        self._pump(final=True)
        changes: dict[str, Any] = {"state": state.value, "ended_at": now_iso(), "message": message}
        if failed is not None:
            changes |= self._failure(self.started[failed[0]], failed[1])
        self._update(**changes)
        shutil.rmtree(self.jd.work_dir, ignore_errors=True)
        end = f"job {state.value}"
        if changes.get("failed_rank") is not None:
            end += f": rank {changes['failed_rank']} {describe_exit(changes['exit_code'])}"
        elif message:
            end += f": {message}"
        self.jd.log(end)
        return 0 if state is JobState.COMPLETED else 1

    def _failure(self, launch: dict[str, Any], code: int) -> dict[str, Any]:
        """Which rank failed first and how, from the process or its launcher's summary."""
        rank, exit_code = launch["ranks"][0], code
        found = None
        if launch["kind"] == "node":
            found = root_cause(
                launch.get("root_cause"), self.routers[launch["log"]].launcher_text()
            )
        elif launch["kind"] == "mpirun":
            mpi = mpirun_first_failure("\n".join(tail_lines(self.jd.file(MPI_LOG), 200)))
            if mpi is not None:
                world_rank, mpi_code = mpi
                stream = f".launcher/node_{world_rank}.txt"
                if stream in self.routers:  # one MPI process per node ran a launcher
                    router = self.routers[stream]
                    found = root_cause(launch.get("root_cause"), router.launcher_text()) or (
                        min(router.rank_logs),
                        mpi_code,
                    )
                else:
                    found = mpi
        if found is not None:
            rank, exit_code = found
        log = self.rank_logs.get(rank)
        return {
            "failed_rank": rank,
            "exit_code": exit_code,
            "failed_log": log,
            "last_lines": tail_lines(self.jd.file(log)) if log else [],
            "message": f"rank {rank} {describe_exit(exit_code)}",
        }

    def _update(self, **changes: Any) -> None:
        """Record `changes` in job.json; on a full disk they are kept here and the job goes on
        (a reader that finds this process gone marks the job Failed and says the disk is full)."""
        if self.gone:
            self.data = self.data | changes
            return
        try:
            self.data = self.jd.update(**changes)
        except OSError as err:
            self.data = self.data | changes
            self.jd.log(f"could not record the job's state: {err.strerror or err}")


def _identity(folder: Path) -> tuple[int, int] | None:
    """`folder`'s (device, inode), or None when there is none there."""
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _utf8(text: str) -> bytes:
    """`text` as UTF-8 bytes; a byte the locale could not decode (a lone surrogate, as Python
    hands such bytes on from argv and the environment) goes back as that same byte."""
    return text.encode("utf-8", "surrogateescape")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tui.backends.local.supervisor", description=__doc__.splitlines()[0]
    )
    parser.add_argument("job_dir")
    parser.add_argument("--owner", type=int, help="cancel the job when this parent process exits")
    args = parser.parse_args(argv)
    return Supervisor(JobDir(args.job_dir), args.owner).run()


if __name__ == "__main__":
    sys.exit(main())
