"""`dtrain-tui logs` as scripts use it: a real process, real local jobs, plain text on stdout."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends import conftest as backends
from tests.backends.conftest import SCRIPTS, local_plan
from tui.backends.base import JobHandle
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

# Fixtures shared with the backend tests: a job root (and DTRAIN_TUI_HOME) per test, a
# backend in it, and whatever a test leaves running is killed after it.
job_root = backends.job_root
backend = backends.backend
ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def logs(*args: str, timeout: float = 60, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tui", "logs", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),  # DTRAIN_TUI_HOME from the job_root fixture
        timeout=timeout,
    )


def ranks_job(backend: LocalBackend, *args: str) -> JobHandle:
    spec = JobSpec(
        sku=None, nodes=2, gpus_per_node=2, code=str(SCRIPTS), script="ranks.py", args=args
    )
    return backend.submit(local_plan(spec))


def log_text(job: JobHandle, rank: int) -> str:
    return (Path(job.location) / f"user_logs/std_log_process_{rank}.txt").read_text()


def test_logs_writes_what_is_there_now(backend: LocalBackend):
    job = ranks_job(backend, "--seconds", "0.4")
    backend.wait(job, timeout=60)
    out = logs(job.name)
    assert out.returncode == 0, out.stderr
    assert out.stdout == log_text(job, 0) and out.stdout.endswith("rank 0 done\n")
    assert out.stderr == ""
    two = logs(job.name, "--rank", "2")
    assert two.returncode == 0 and two.stdout == log_text(job, 2)


def test_logs_follow_runs_until_the_job_ends_and_exits_0_when_it_completed(backend):
    job = ranks_job(backend, "--seconds", "2")
    out = logs(job.name, "--follow")
    assert out.returncode == 0, out.stderr
    assert out.stdout == log_text(job, 0)
    assert out.stdout.count("rank 0 beat") >= 9 and out.stdout.endswith("rank 0 done\n")
    assert out.stderr == f"job {job.name}: Completed\n"


def test_logs_follow_exits_1_when_the_job_failed(backend: LocalBackend):
    job = ranks_job(backend, "--seconds", "30", "--fail-rank", "1", "--fail-after", "1")
    out = logs(job.name, "--follow", "--rank", "1")
    assert out.returncode == 1
    assert out.stdout.endswith("rank 1: failing on purpose with exit code 1\n")
    assert out.stderr == f"job {job.name}: Failed: rank 1 exited with code 1\n"


def test_unknown_job_rank_or_target_exits_2_with_one_line(backend: LocalBackend):
    missing = logs("no-such-job")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.startswith("dtrain-tui: error: no local job named 'no-such-job'")
    assert missing.stderr.count("\n") == 1

    job = ranks_job(backend, "--seconds", "0.2")
    backend.wait(job, timeout=60)
    rank = logs(job.name, "--rank", "4")
    assert rank.returncode == 2
    assert rank.stderr == f"dtrain-tui: error: job {job.name} has no log for rank 4 (ranks 0-3)\n"

    azure = logs(job.name, "--target", "azure")  # not an Azure ML job (nor a workspace)
    assert azure.returncode == 2 and azure.stderr.count("\n") == 1


def test_no_ui_writes_plain_text_even_on_a_terminal(backend: LocalBackend):
    job = ranks_job(backend, "--seconds", "0.2")
    backend.wait(job, timeout=60)
    leader, follower = pty.openpty()
    try:
        out = logs(job.name, "--no-ui", stdout=follower)
        os.close(follower)
        follower = -1
        received = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the writer is gone and everything was read
                break
            if not chunk:
                break
            received += chunk
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    assert out.returncode == 0, out.stderr
    # The terminal turns \n into \r\n; nothing else (no escape codes, no UI).
    assert received.decode().replace("\r\n", "\n") == log_text(job, 0)
