"""The third walk's hints and help (issue 40 items 7 and 12): an install line that works, and
help that says what each command does by default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tui.planning.preflight import extra_install

ROOT = Path(__file__).resolve().parents[1]


def _help(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tui", *args, "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())  # argparse wraps at the terminal's width


def test_submit_help_says_it_runs_on_this_machine_by_default():
    text = _help("submit")
    assert "this machine (default)" in text and "an Azure ML cluster (default" not in text
    assert "an Azure ML cluster (default" in _help("preview")  # preview plans for Azure ML


def test_presets_help_explains_its_arguments():
    text = _help("presets")
    assert "list: every preset" in text and "show: one preset" in text
    assert "the preset to show" in text


def test_the_azure_install_hint_is_a_command_that_works_from_this_checkout(tmp_path: Path):
    # The test venv installs dtrain-tui editable from this checkout (tests/setup.sh).
    here = extra_install("azure", base=ROOT)
    assert here.endswith("-m pip install -e '.[azure]'"), here
    elsewhere = extra_install("azure", base=tmp_path)
    assert elsewhere.endswith(f"-m pip install -e '{ROOT}[azure]'"), elsewhere
    assert "dtrain-tui[" not in here + elsewhere
