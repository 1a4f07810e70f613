"""`dtrain-tui submit`, `jobs` and `cancel` as a user runs them, in a real process each."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.backends.conftest import SCRIPTS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=timeout,
    )


@pytest.fixture
def spec_file(tmp_path: Path, job_root: Path) -> Path:
    path = tmp_path / "ranks.yaml"
    spec = {
        "framework": "pytorch",
        "nodes": 2,
        "gpus_per_node": 2,
        "sku": None,
        "code": str(SCRIPTS),
        "script": "ranks.py",
        "args": ["--seconds", "0.5"],
    }
    path.write_text(yaml.safe_dump(spec))
    return path


def test_submit_wait_follows_rank_0_and_exits_0_when_it_completes(spec_file: Path, job_root):
    out = cli("submit", "--spec", str(spec_file), "--wait")
    assert out.returncode == 0, out.stderr
    name, logs, *_ = out.stdout.splitlines()
    assert (job_root / name / "job.json").is_file()
    assert logs.startswith(f"logs: {job_root / name / 'user_logs'}")
    assert re.search(r"^rank 0 pid \d+ started$", out.stdout, re.M) and "rank 0 done" in out.stdout
    assert "rank 1 " not in out.stdout  # only rank 0's log is followed
    assert f"job {name}: Completed" in out.stderr

    listed = cli("jobs")
    assert listed.returncode == 0
    assert any(line.startswith(name) and "Completed" in line for line in listed.stdout.splitlines())


def test_submit_wait_exits_1_and_names_the_rank_when_one_fails(spec_file: Path, job_root):
    out = cli("submit", "--spec", str(spec_file), "--set", "args=--fail-rank 2", "--wait")
    assert out.returncode == 1
    assert "Failed: rank 2 exited with code 1" in out.stderr
    assert "rank 2: failing on purpose" in out.stderr  # its last lines, since it is not rank 0


def test_submit_returns_at_once_and_cancel_stops_the_job(spec_file: Path, job_root):
    out = cli("submit", "--spec", str(spec_file), "--set", "args=--seconds 60")
    assert out.returncode == 0, out.stderr
    name = out.stdout.splitlines()[0]
    stopped = cli("cancel", name)
    assert stopped.returncode == 0, stopped.stderr
    assert stopped.stdout.strip() == f"{name}: Canceled"
    again = cli("cancel", name)
    assert again.stdout.strip() == f"{name} had already ended: Canceled"


def test_errors_are_one_line_and_exit_2(job_root):
    missing = cli("cancel", "no-such-job")
    assert missing.returncode == 2
    assert missing.stderr.strip().count("\n") == 0
    assert "no local job named 'no-such-job'" in missing.stderr
    # (Azure ML errors, which need a workspace emulator, are tested in tests/azure.)
    unknown = cli("submit", "--preset", "pytorch-ddp", "--target", "mars")
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    bad = cli("submit", "--preset", "pytorch-ddp", "--set", "nodes=0")
    assert bad.returncode == 2 and bad.stderr.startswith("dtrain-tui: error: --set nodes")
