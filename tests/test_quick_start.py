"""The README's `Quick start keys:` line, replayed in a real terminal (tmux) at full speed.

From `dtrain-tui` in an empty folder to rank 0's loss line of a local 2 × 2 rehearsal: the line
must stay within 12 keys, and those keys, sent in one burst as soon as the first screen shows,
must end with the loss line on screen. tmux is installed by tests/setup.sh.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
APP = Path(sys.executable).with_name("dtrain-tui")
LOSS = re.compile(r"^epoch \d+ loss \d", re.M)


def quick_start_keys() -> list[str]:
    found = re.findall(r"^Quick start keys: (.+)$", README.read_text(encoding="utf-8"), re.M)
    assert len(found) == 1, "README.md needs exactly one `Quick start keys: …` line"
    return found[0].split()


def test_the_quick_start_line_is_at_most_12_keys():
    keys = quick_start_keys()
    assert 0 < len(keys) <= 12, keys


def _wait(tmux, pattern: re.Pattern[str], what: str, ceiling: float) -> str:
    deadline = time.monotonic() + ceiling
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", "qs").stdout
        if pattern.search(screen):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{what} did not appear within {ceiling:.0f} s; the screen:\n{screen}")


def test_the_quick_start_keys_reach_rank_0_s_loss_line(tmp_path: Path):
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: run `bash tests/setup.sh` (it installs tmux)")
    folder = tmp_path / "empty"
    folder.mkdir()
    socket = tmp_path / "tmux.sock"

    def tmux(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-S", str(socket), *args], capture_output=True, text=True, timeout=30
        )

    env = {k: os.environ[k] for k in os.environ if k in ("HOME", "DTRAIN_TUI_HOME", "PATH")}
    env |= {k: v for k, v in os.environ.items() if k.startswith("XDG_")}
    command = " ".join(f"{k}='{v}'" for k, v in env.items()) + f" TERM=xterm-256color {APP}"
    started = tmux(
        "new-session", "-d", "-s", "qs", "-x", "120", "-y", "36", "-c", str(folder),
        f"env {command}",
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    try:
        _wait(tmux, re.compile("What does your training script use"), "the first screen", 60)
        tmux("send-keys", "-t", "qs", *quick_start_keys())  # one burst, no pauses
        screen = _wait(tmux, LOSS, "rank 0's loss line", 180)
        assert "rank 0" in screen
        tmux("send-keys", "-t", "qs", "C-q")
        deadline = time.monotonic() + 60
        while tmux("has-session", "-t", "qs").returncode == 0 and time.monotonic() < deadline:
            if "still running" in tmux("capture-pane", "-p", "-t", "qs").stdout:
                tmux("send-keys", "-t", "qs", "c")  # cancel it: nothing outlives the test
            time.sleep(0.2)
    finally:
        tmux("kill-server")
    assert not list(folder.iterdir()), "the rehearsal wrote into the user's empty folder"
