"""The log view's spool files leave nothing behind, however the process ends.

`LogStore` (widgets/log_store.py) spools every line of a log to a temporary file in the cache
folder; a 1 GB log makes a 1 GB spool. It is deleted by `LogStore.close()` (the view is left),
and, for the spools `track`ed and not yet `forget`-ten, at exit and on SIGHUP or SIGTERM (the
terminal closed, the session ended: Python would otherwise die without running anything). One a
SIGKILL left is deleted by `remove_stale` at the app's next start (`remove_stale_spools`, in a
thread once the first frame is drawn) and when the next log view opens.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def track(path: Path) -> None:
    """Delete `path` however this process ends, unless `forget` is called first."""
    _clean_up_on_every_way_out()
    _OPEN_SPOOLS.add(path)


def new_spool(folder: Path) -> tuple[Path, int]:
    """A new spool file in `folder`, readable by this user only, and its descriptor. It is
    tracked before it exists, so a signal at any moment leaves none behind (a name `mkstemp`
    chose could only be tracked once the file was there); the name carries this process's
    number, which `remove_stale` reads."""
    flags = os.O_CREAT | os.O_EXCL | os.O_RDWR | getattr(os, "O_BINARY", 0)
    while True:
        path = folder / f"log-{os.getpid()}-{secrets.token_hex(4)}.txt"
        track(path)
        try:
            return path, os.open(path, flags, 0o600)
        except FileExistsError:
            forget(path)


def forget(path: Path) -> None:
    """`path` was deleted by its owner."""
    _OPEN_SPOOLS.discard(path)


def spool_dir() -> Path:
    """Where spools live: `$DTRAIN_TUI_HOME/cache/spool`, else the platform's user cache dir."""
    from tui.core.dirs import cache_dir  # not before the app's first frame needs it

    return cache_dir() / "spool"


def remove_stale_spools() -> None:
    """At the app's start: delete the spools that processes gone since left (`remove_stale`).
    A glob of one folder and a stat per spool, run in a thread after the first frame."""
    remove_stale(spool_dir())


def remove_stale(folder: Path) -> None:
    """Delete spools left by processes that are gone (a crash or SIGKILL skips every clean-up),
    or whose process number now belongs to a process started after the spool's last write."""
    if os.name != "posix":
        return  # os.kill(pid, 0) is not a liveness probe on Windows
    boot = _boot_time()
    for path in folder.glob("log-*-*.txt"):
        try:
            pid = int(path.name.split("-")[1])
        except ValueError:
            continue
        if pid != os.getpid() and not _owner_may_write(pid, path, boot):
            with contextlib.suppress(OSError):
                path.unlink()


def _owner_may_write(pid: int, spool: Path, boot: float | None) -> bool:
    """Whether process `pid` is alive and, where /proc says when it started (Linux), started
    before `spool`'s last write: else its number was reused and the spool's writer is gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    if boot is None:
        return True  # no start time to tell a reused number by: keep it
    try:
        return spool.stat().st_mtime >= _started(pid, boot)
    except FileNotFoundError:
        return False  # it ended meanwhile, or the spool is gone already
    except (OSError, ValueError, IndexError):
        return True


def _started(pid: int, boot: float) -> float:
    """When `pid` started, in seconds since the epoch, never later than it did (the boot time
    is in whole seconds, rounded down). The /proc/PID folder's ctime is not it: that is when the
    folder was first looked at, which can be long after (a live log view's spool was deleted)."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        after_name = f.read().rsplit(b")", 1)[1].split()
    return boot + int(after_name[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime


def _boot_time() -> float | None:
    """When this machine booted (Linux's /proc/stat btime); None where there is no /proc."""
    try:
        with open("/proc/stat", "rb") as f:
            return float(next(line.split()[1] for line in f if line.startswith(b"btime ")))
    except (OSError, StopIteration, ValueError, IndexError):
        return None


_OPEN_SPOOLS: set[Path] = set()
"""The spools of this process not closed yet: deleted at exit and on a fatal signal."""
_CLEANUP_INSTALLED: list[bool] = []


def _delete_open_spools() -> None:
    for path in list(_OPEN_SPOOLS):
        with contextlib.suppress(OSError):
            path.unlink()
    _OPEN_SPOOLS.clear()


def _clean_up_on_every_way_out() -> None:
    """At exit and on SIGHUP or SIGTERM (before the signal does what it did; a handler
    already there is called), the tracked spools are deleted. Installed once."""
    if _CLEANUP_INSTALLED:
        return
    _CLEANUP_INSTALLED.append(True)
    import atexit
    import signal

    atexit.register(_delete_open_spools)
    for sig in (signal.SIGHUP, signal.SIGTERM) if hasattr(signal, "SIGHUP") else ():
        try:
            previous = signal.getsignal(sig)
            signal.signal(sig, _on_fatal_signal(sig, previous))
        except ValueError:  # not the main thread: atexit and the next start still clean up
            continue


def _on_fatal_signal(sig: int, previous):
    import signal

    def handler(signum: int, frame) -> None:
        _delete_open_spools()
        if callable(previous):
            previous(signum, frame)
            return
        if previous == signal.SIG_IGN:
            return
        signal.signal(sig, signal.SIG_DFL)  # then end as the signal would have ended us
        os.kill(os.getpid(), sig)

    return handler
