"""Processes of a local job: who they are (pid + start time), their descendants, stopping them.

A pid alone is not an identity: once a process exits the kernel may hand its pid to another one,
so every pid the local backend records travels with the process's start time, and nothing is
signalled unless both still match. Linux reads both from /proc; elsewhere `ps` answers.

Stdlib only: the supervisor imports this and must start fast.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

_PROC = Path("/proc")
PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True, slots=True)
class ProcInfo:
    """What /proc (or ps) says about one live process."""

    pid: int
    ppid: int
    pgid: int
    start: str
    """Start time (clock ticks since boot on Linux, else as `ps` prints it): same pid + same
    start = same process."""
    state: str


def _stat_linux(pid: int) -> ProcInfo | None:
    try:
        raw = (_PROC / str(pid) / "stat").read_bytes().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may itself hold spaces or ')'.
    rest = raw[raw.rfind(")") + 2 :].split()
    # rest[0] is field 3 (state); field n is rest[n - 3].
    return ProcInfo(pid, int(rest[1]), int(rest[2]), rest[19], rest[0])


def _stat_ps(pid: int) -> ProcInfo | None:
    try:
        out = subprocess.run(
            ["ps", "-o", "ppid=,pgid=,stat=,lstart=", "-p", str(pid)],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split(None, 3)
    except OSError:
        return None
    if len(out) < 4:
        return None
    return ProcInfo(pid, int(out[0]), int(out[1]), out[3].strip(), out[2][:1])


def proc_info(pid: int) -> ProcInfo | None:
    """The live process `pid`, or None when there is none (a zombie counts as gone)."""
    info = _stat_linux(pid) if _PROC.is_dir() else _stat_ps(pid)
    if info is None or info.state in ("Z", "X"):
        return None
    return info


def start_time(pid: int) -> str | None:
    info = proc_info(pid)
    return info.start if info else None


def is_alive(pid: int, start: str | None) -> bool:
    """Whether the process that had `pid` and started at `start` is still running."""
    info = proc_info(pid)
    return info is not None and (start is None or info.start == start)


def _all_linux() -> list[ProcInfo]:
    found = []
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            info = _stat_linux(int(entry.name))
            if info is not None:
                found.append(info)
    return found


def _all_ps() -> list[ProcInfo]:
    try:
        out = subprocess.run(
            ["ps", "-A", "-o", "pid=,ppid=,pgid=,stat=,lstart="],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    except OSError:
        return []
    found = []
    for line in out.splitlines():
        parts = line.split(None, 4)
        if len(parts) == 5:
            pid, ppid, pgid, stat, start = parts
            found.append(ProcInfo(int(pid), int(ppid), int(pgid), start.strip(), stat[:1]))
    return found


def descendants(root: int) -> list[ProcInfo]:
    """Every live process below `root` in the process tree (children first, then theirs)."""
    table = _all_linux() if _PROC.is_dir() else _all_ps()
    children: dict[int, list[ProcInfo]] = {}
    for info in table:
        if info.state not in ("Z", "X"):
            children.setdefault(info.ppid, []).append(info)
    out: list[ProcInfo] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            out.append(child)
            todo.append(child.pid)
    return out


def become_subreaper() -> bool:
    """Make orphaned descendants re-parent to this process instead of init (Linux only).

    A launcher (a per-node launcher, mpirun) killed before its workers leaves them orphaned; as a
    subreaper the supervisor still sees them as descendants and can stop them.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def signal_process(pid: int, start: str | None, sig: int, group: bool = False) -> bool:
    """Send `sig` to `pid` (and its process group when it leads one), if it is still that process.

    Returns whether the process was there to receive it.
    """
    info = proc_info(pid)
    if info is None or (start is not None and info.start != start):
        return False
    if group and info.pgid == pid:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, sig)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, sig)
    return True


def signal_name(code: int) -> str:
    try:
        return signal.Signals(code).name
    except ValueError:
        return f"signal {code}"


def visible_gpus(environ: dict[str, str] | None = None) -> list[str]:
    """The CUDA devices this machine shows, as CUDA_VISIBLE_DEVICES entries; [] without CUDA.

    Reads CUDA_VISIBLE_DEVICES when it is set (the user narrowed the choice), else counts the
    NVIDIA driver's devices; torch is not imported (it costs seconds).
    """
    env = os.environ if environ is None else environ
    if "CUDA_VISIBLE_DEVICES" in env:
        return [d.strip() for d in env["CUDA_VISIBLE_DEVICES"].split(",") if d.strip()]
    driver = _PROC / "driver" / "nvidia" / "gpus"
    if driver.is_dir():
        count = sum(1 for _ in driver.iterdir())
        if count:
            return [str(i) for i in range(count)]
    try:
        out = subprocess.run(
            ["nvidia-smi", "-L"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [str(i) for i, _ in enumerate(x for x in out.splitlines() if x.startswith("GPU "))]
