"""One browser tab's wizard, as `dtrain-tui serve` starts it (a process per tab).

It lives only as long as the server that started it: when `serve` dies, even by SIGKILL with
no chance to stop its tabs, its wizards notice (their parent changes, their stdin closes) and
exit, instead of running on with no one to quit them.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time

QUIT_GRACE_S = 5.0
"""How long a wizard whose server died has to quit cleanly before it ends itself at once."""

POLL_S = 0.5


def served_app() -> None:
    """One tab's wizard: the usual app, its local jobs not tied to its process (a closed tab
    would otherwise cancel them, as a killed terminal app does)."""
    from functools import partial

    from tui.app import DtrainApp, default_backends

    watch_server(os.getppid())
    backends = default_backends()
    if "local" in backends:
        backends["local"] = partial(backends["local"], detach=True)
    DtrainApp(backends=backends).run()


def watch_server(server: int) -> threading.Thread:
    """End this process once `server` is no longer its parent or its stdin (the server's end
    of the pipe) closes: first as SIGTERM does (the web driver's clean quit), then, should the
    app be too stuck to quit, at once."""
    thread = threading.Thread(target=_watch, args=(server,), name="serve-lifeline", daemon=True)
    thread.start()
    return thread


def _watch(server: int) -> None:
    while not _server_gone(server):
        pass
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(QUIT_GRACE_S)
    os._exit(1)


def _server_gone(server: int) -> bool:
    """Wait up to POLL_S for a sign that the server is gone; say whether there was one.

    A dead parent closes its end of our stdin at once, which poll() reports as a hang-up
    without reading a byte (the app's input thread reads them); where poll() is missing, the
    parent's pid changing (to init or a subreaper) says the same, a little later."""
    if os.getppid() != server:
        return True
    if not hasattr(select, "poll"):
        time.sleep(POLL_S)
        return os.getppid() != server
    try:
        watcher = select.poll()
        watcher.register(sys.__stdin__.fileno(), 0)  # hang-up and errors only, never "readable"
        events = watcher.poll(POLL_S * 1000)
    except (OSError, ValueError, AttributeError):  # no stdin to watch
        time.sleep(POLL_S)
        return os.getppid() != server
    return any(flags & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, flags in events)
