"""`dtrain-tui jobs` (issue 26, item 5): on a terminal the live jobs list, piped the table it
always printed. In a real terminal (tmux) and a real pipe."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.backends.conftest import SCRIPTS, local_plan
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

APP = Path(sys.executable).with_name("dtrain-tui")
pytestmark = pytest.mark.slow


def _env() -> dict[str, str]:
    names = ("HOME", "DTRAIN_TUI_HOME", "PATH")
    return {k: v for k, v in os.environ.items() if k in names or k.startswith("XDG_")}


def finished_job() -> str:
    backend = LocalBackend(detach=True, gpus=[])
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(SCRIPTS), script="ranks.py",
                   args=("--seconds", "0.2"))  # fmt: skip
    job = backend.submit(local_plan(spec))
    assert backend.wait(job, timeout=60).is_terminal
    return job.name


class Tmux:
    """One tmux server of the test's own."""

    def __init__(self, folder: Path) -> None:
        if shutil.which("tmux") is None:
            pytest.fail("tmux is not installed: run `bash tests/setup.sh` (it installs tmux)")
        self.socket = folder / "tmux.sock"

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, timeout=30
        )

    def start(self, command: str, size: tuple[int, int], cwd: Path) -> None:
        env = " ".join(f"{k}='{v}'" for k, v in _env().items())
        width, height = size
        started = self(
            "new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), "-c", str(cwd),
            f"env {env} TERM=xterm-256color {command}",
        )  # fmt: skip
        assert started.returncode == 0, started.stderr

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "t").stdout

    def wait(self, pattern: str, what: str, ceiling: float = 60.0) -> str:
        deadline = time.monotonic() + ceiling
        while time.monotonic() < deadline:
            shown = self.screen()
            if re.search(pattern, shown):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{what} did not appear within {ceiling:.0f} s:\n{self.screen()}")

    def gone(self, ceiling: float = 30.0) -> bool:
        deadline = time.monotonic() + ceiling
        while self("has-session", "-t", "t").returncode == 0:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
        return True


def test_jobs_on_a_terminal_is_the_live_list_and_q_leaves(tmp_path: Path):
    name = finished_job()
    tmux = Tmux(tmp_path)
    tmux.start(f"{APP} jobs", (80, 24), tmp_path)
    try:
        tmux.wait(re.escape(name[:20]), "the job's row")
        # The row and the footer can reach the terminal in separate writes: wait for both.
        shown = tmux.wait(rf"{re.escape(name[:20])}(.|\n)*\^q Quit", "the row and the footer")
        assert re.search(r"WHERE +NAME +STATUS +AGE", shown)
        assert re.search(rf"here +{re.escape(name[:20])}", shown)
        footer = shown.rstrip().splitlines()[-1]  # at 80 columns the essential keys still show
        assert all(key in footer for key in ("esc Back", "f1 Help", "^q Quit")), footer
        tmux("send-keys", "-t", "t", "q")
        assert tmux.gone(), tmux.screen()
    finally:
        tmux("kill-server")


def test_jobs_piped_prints_the_table(tmp_path: Path):
    name = finished_job()
    out = subprocess.run(
        [str(APP), "jobs"], capture_output=True, text=True, env=_env(), timeout=60, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    header, row = out.stdout.splitlines()
    assert header.split()[:4] == ["NAME", "STATUS", "CREATED", "TOOK"]
    assert row.split()[:2] == [name, "Completed"]
