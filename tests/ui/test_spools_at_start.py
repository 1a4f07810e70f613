"""Spools a SIGKILLed log view left behind are deleted when the app next starts (issue 28), not
only when a log view next opens; a live process's spool is its own and stays."""

from __future__ import annotations

import os
import subprocess
import time

from tests.ui.waits import until
from widgets.log_spools import spool_dir

from .conftest import make_app


async def test_the_app_start_deletes_stale_spools_and_keeps_a_live_process_s():
    folder = spool_dir()
    folder.mkdir(parents=True)
    ended = subprocess.Popen(["true"])
    ended.wait()
    stale = folder / f"log-{ended.pid}-killed.txt"
    stale.write_text("a log view's lines, its process SIGKILLed\n" * 1000)
    an_hour_ago = time.time() - 3600  # a process that reuses its number starts after this
    os.utime(stale, (an_hour_ago, an_hour_ago))
    alive = subprocess.Popen(["sleep", "600"])
    try:
        kept = folder / f"log-{alive.pid}-open.txt"
        kept.write_text("the lines of a log view open in another terminal\n")
        async with make_app().run_test() as pilot:
            await until(pilot, lambda: not stale.exists(), "the stale spool is deleted")
            app = pilot.app
            await app.workers.wait_for_complete([w for w in app.workers if w.group == "spools"])
            assert kept.exists()
    finally:
        alive.kill()
        alive.wait()
