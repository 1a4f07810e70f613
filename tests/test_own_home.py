"""Every test runs in a home of its own: the user's presets, jobs and caches are never read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tui.core.dirs import config_dir, state_dir
from tui.planning.presets import get_preset

ROOT = Path(__file__).resolve().parents[1]


def test_the_app_and_its_subprocesses_look_only_in_the_tests_own_home(own_home: Path):
    assert Path.home() == own_home / "user" and config_dir().is_relative_to(own_home)
    assert get_preset("pytorch-ddp").source == "shipped"
    script = "import pathlib as p, tui.core.dirs as d; print(d.state_dir(), p.Path.home())"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert out == [str(state_dir()), str(own_home / "user")]


def test_without_dtrain_tui_home_the_platform_folders_are_inside_home(own_home, monkeypatch):
    monkeypatch.delenv("DTRAIN_TUI_HOME")
    assert config_dir().is_relative_to(own_home / "user")
    assert state_dir().is_relative_to(own_home / "user")
    assert os.environ["XDG_CACHE_HOME"].startswith(str(own_home))
