"""The log view's spool files leave nothing behind, however the process ends.

`LogStore` (widgets/log_store.py) spools every line of a log to a temporary file in the cache
folder; a 1 GB log makes a 1 GB spool. It is deleted by `LogStore.close()` (the view is left),
and, for the spools `track`ed and not yet `forget`-ten, at exit and on SIGHUP or SIGTERM (the
terminal closed, the session ended: Python would otherwise die without running anything). One a
SIGKILL left is deleted by `remove_stale` when the next log view opens.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def track(path: Path) -> None:
    """Delete `path` however this process ends, unless `forget` is called first."""
    _clean_up_on_every_way_out()
    _OPEN_SPOOLS.add(path)


def forget(path: Path) -> None:
    """`path` was deleted by its owner."""
    _OPEN_SPOOLS.discard(path)


def remove_stale(folder: Path) -> None:
    """Delete spools left by processes that are gone (a crash or SIGKILL skips every clean-up),
    or whose process number now belongs to a process started after the spool's last write."""
    if os.name != "posix":
        return  # os.kill(pid, 0) is not a liveness probe on Windows
    for path in folder.glob("log-*-*.txt"):
        try:
            pid = int(path.name.split("-")[1])
            if pid == os.getpid():
                continue
            os.kill(pid, 0)
            started = os.stat(f"/proc/{pid}").st_ctime  # Linux: when that process started
            if path.stat().st_mtime >= started:
                continue  # its process may still be writing it
        except (ProcessLookupError, FileNotFoundError):
            pass
        except (ValueError, PermissionError, OSError):
            continue
        with contextlib.suppress(OSError):
            path.unlink()


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
