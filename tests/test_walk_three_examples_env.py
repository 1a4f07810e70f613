"""The third walk (issue 40, item 1): a shipped example's first line is not read as metrics.

Each example prints the distributed variables it got (`DTRAIN_ENV RANK=0 ...`), not the host's
environment as a JSON object of numbers; `dtrain-tui metrics` on a real rehearsal's log shows
the loss and no environment variable."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends import conftest as backends
from tests.backends.conftest import local_plan, require
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.planning.presets import REHEARSAL, get_preset

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend


def test_a_rehearsals_metrics_hold_the_loss_and_no_environment_variable(
    backend: LocalBackend, monkeypatch: pytest.MonkeyPatch
):
    require("torch")
    monkeypatch.delenv("DTRAIN_ENV_DUMP")  # as a user runs it: the examples' own choice
    monkeypatch.setenv("SHLVL", "1")  # the host's environment, which the walk saw plotted
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "180")
    spec = get_preset("pytorch-ddp").spec.with_changes(**(REHEARSAL | {"nodes": 1}))
    p = local_plan(spec)
    job = backend.submit(p)
    status = backend.wait(job, timeout=240)
    log = Path(job.location) / p.ranks[0].log_file
    assert status.state is JobState.COMPLETED, log.read_text()[-2000:]
    done = subprocess.run(
        [sys.executable, "-m", "tui", "metrics", str(log)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    series = {row["metric"] for row in csv.DictReader(io.StringIO(done.stdout))}
    assert series == {"loss"}, done.stdout
    first = log.read_text().splitlines()[0]
    assert first.startswith("DTRAIN_ENV ") and " RANK=0 " in first and "WORLD_SIZE=2" in first
    assert "SHLVL" not in first and "PIP_DEFAULT_TIMEOUT" not in first and "PATH=" not in first
