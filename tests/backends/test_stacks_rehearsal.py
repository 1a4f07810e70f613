"""A real hang on this machine (gloo, CPU torch, 2 nodes x 2): rank 3 sleeps in its data loader
while ranks 0-2 wait in all_reduce. The stacks name rank 3 and its line, the others grouped;
the doctor calls it a hang with rank 3 as culprit; the job was not killed by being asked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.backends.conftest import SCRIPTS, local_plan, require
from tui.backends.stacks import collect
from tui.core.spec import JobSpec
from tui.logs.stacks import odd_one_out, summary

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=120,
    )


def _wait_for(path: Path, text: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in path.read_text(errors="replace"):
            return
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not in {path} within {timeout} s:\n{path.read_text()[-2000:]}")


@pytest.mark.parametrize("launch", ["per_node"])
def test_the_stacks_name_the_rank_that_hangs_and_the_doctor_calls_it_a_hang(backend, launch):
    require("torch", "torchrun")
    spec = JobSpec(
        framework="pytorch",
        launch=launch,
        nodes=2,
        gpus_per_node=2,
        sku=None,
        compute=None,
        code=str(SCRIPTS),
        script="hang.py",
        env={"HANG_RANK": "3"},
    )
    job = backend.submit(local_plan(spec))
    logs = backend.root / job.name / "user_logs"
    _wait_for(logs / "std_log_process_0.txt", "step 1")

    # Past step 1 rank 3 sleeps and the others reach all_reduce a moment later (later on a loaded
    # machine): asked again until they have, never after a guessed sleep. How long one asking
    # takes is printed, not asserted (the 3 s is a speed figure, not a pass/fail).
    deadline = time.monotonic() + 60  # a ceiling for start-up, not a speed
    while True:
        started = time.monotonic()
        found = collect(backend, job)
        print(f"stacks of 4 ranks collected in {time.monotonic() - started:.2f} s")
        if odd_one_out(found.groups) == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert found.asked == 4
    assert odd_one_out(found.groups) == 3
    line = summary(found.groups)
    assert line.startswith("rank 3: time.sleep ← load_batch hang.py:20 · 3 ranks: all_reduce ←")
    assert "train_step hang.py:25" in line
    assert backend.status(job).state.value == "Running"  # asking killed nobody

    out = _cli("stacks", job.name, "--json")
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["odd_one_out"] == 3
    assert [g["ranks"] for g in shown["groups"]] == [[3], [0, 1, 2]]

    out = _cli("doctor", job.name, "--json")
    told = json.loads(out.stdout)
    assert (told["cause"], told["rank"]) == ("hang", 3), out.stdout
    assert told["evidence"][0].startswith("user_logs/std_log_process_3.txt:")
    assert 'hang.py", line 20 in load_batch' in told["lines"][0]["text"]
    backend.cancel(job)


def _hang_job(backend, mode: str):
    spec = JobSpec(
        framework="pytorch",
        launch="per_node",
        nodes=2,
        gpus_per_node=2,
        sku=None,
        compute=None,
        code=str(SCRIPTS),
        script="hang.py",
        env={"HANG_RANK": "3", "HANG_MODE": mode},
    )
    job = backend.submit(local_plan(spec))
    _wait_for(backend.root / job.name / "user_logs" / "std_log_process_0.txt", "step 1")
    return job


def test_a_rank_spinning_in_a_busy_loop_is_the_odd_one_out_at_its_line(backend):
    require("torch", "torchrun")
    job = _hang_job(backend, "spin")
    deadline = time.monotonic() + 60  # a ceiling for start-up, not a speed
    while True:
        found = collect(backend, job)
        if odd_one_out(found.groups) == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert odd_one_out(found.groups) == 3
    assert summary(found.groups).startswith("rank 3: load_batch hang.py:18 · 3 ranks: all_reduce")
    backend.cancel(job)


def test_a_rank_that_dies_without_a_word_is_the_culprit_not_the_peers_that_lost_it(backend):
    """Rank 3 ends with code 3 and prints nothing; ranks 0-2 fail with gloo's `Connection reset
    by peer`. The doctor names rank 3 (the launcher's first failure), not a peer's echo."""
    require("torch", "torchrun")
    job = _hang_job(backend, "exit")
    deadline = time.monotonic() + 90
    while not backend.status(job).is_terminal and time.monotonic() < deadline:
        time.sleep(0.2)
    assert backend.status(job).state.value == "Failed"
    out = _cli("doctor", job.name, "--json")
    told = json.loads(out.stdout)
    assert told["rank"] == 3, out.stdout
    assert told["evidence"][0].startswith("user_logs/std_log_process_3.txt:")
