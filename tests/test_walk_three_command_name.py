"""The third walk (issue 40, item 10): after the README's Run-it line `dtrain-tui` is not on PATH
(the venv is not activated), so a hint names the command that works in this shell."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).absolute().parent


def _run(argv: list[str], folder: Path, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path, "PYTHONPATH": str(ROOT)}
    env["DTRAIN_TUI_HOME"] = str(folder / "home")
    return subprocess.run(argv, capture_output=True, text=True, cwd=folder, env=env, timeout=60)


def _hinted(folder: Path, path: str) -> str:
    """The command `jobs` says to start one with, in a folder with no jobs."""
    done = _run([sys.executable, "-m", "tui", "jobs"], folder, path)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("`")[1].removesuffix(" submit --preset NAME")


def test_a_hint_names_the_venvs_script_when_dtrain_tui_is_not_on_path(tmp_path: Path):
    (tmp_path / "project").mkdir()
    project = tmp_path / "project"  # one's own project folder, the venv elsewhere
    without = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if Path(p) != BIN)
    named = _hinted(project, without or "/usr/bin:/bin")
    assert named != "dtrain-tui", named
    works = _run([*shlex.split(named), "--version"], project, without or "/usr/bin:/bin")
    assert works.returncode == 0 and works.stdout.startswith("dtrain-tui"), works.stderr
    assert _hinted(project, f"{BIN}{os.pathsep}/usr/bin:/bin") == "dtrain-tui"  # activated
