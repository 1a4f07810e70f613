"""Ask a local job's ranks for their Python stacks: SIGUSR1 to each process that armed
dtrain-tui's dumper, then what each rank log gained.

A process that did not arm it must never get the signal (SIGUSR1's default action ends it), so
only processes whose caught-signal mask holds SIGUSR1 are signalled (Linux's /proc; elsewhere
none are, and the stacks the ranks wrote on their own still count). Of a rank and the
DataLoader workers it forked, which inherit its handler and its output, only the rank is asked:
a process whose parent is armed and runs the same command line is such a copy.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tui.backends.local.procs import ProcInfo, descendants, signal_process

_PROC = Path("/proc")


def _caught(pid: int) -> int:
    try:
        for line in (_PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16)
    except (OSError, ValueError):
        pass
    return 0


def armed(pid: int) -> bool:
    """Whether `pid` catches SIGUSR1 (dtrain-tui's dumper registered it)."""
    return bool(_caught(pid) >> (signal.SIGUSR1 - 1) & 1)


def _cmdline(pid: int) -> bytes:
    try:
        return (_PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""


def rank_processes(root: int) -> list[ProcInfo]:
    """The armed processes below `root`, less the forked copies of an armed parent."""
    found = [p for p in descendants(root) if armed(p.pid)]
    pids = {p.pid for p in found}
    return [p for p in found if p.ppid not in pids or _cmdline(p.ppid) != _cmdline(p.pid)]


def ask(
    root: int, logs: dict[str, Path], wait: float = 2.5, settle: float = 0.3
) -> tuple[int, dict[str, str]]:
    """Signal the ranks below `root`; (how many were asked, {log: the text it gained}).

    Returns once no log has grown for `settle` seconds after the first growth, or after `wait`.
    """
    sizes = {name: _size(path) for name, path in logs.items()}
    asked = 0
    for proc in rank_processes(root):
        if signal_process(proc.pid, proc.start, signal.SIGUSR1):
            asked += 1
    if asked:
        deadline = time.monotonic() + wait
        last_change: float | None = None
        seen = dict(sizes)
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now = {name: _size(path) for name, path in logs.items()}
            if now != seen:
                seen, last_change = now, time.monotonic()
            elif last_change is not None and time.monotonic() - last_change >= settle:
                break
    gained = {}
    for name, path in logs.items():
        try:
            with path.open("rb") as f:
                f.seek(sizes[name])
                gained[name] = f.read().decode("utf-8", "replace")
        except OSError:
            gained[name] = ""
    return asked, gained


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
