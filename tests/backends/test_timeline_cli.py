"""`dtrain-tui doctor NAME` ends with where the job's time went (issue 41 item 2): a real local
job whose rank 1 fails while rank 0 still runs; its phases in order, the first failure placed
where the launcher said rank 1 exited, their durations adding up to the job's own time, and
what each cost at the VM size's price."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import pytest

from tests.backends.conftest import local_plan
from tui.backends.base import JobState
from tui.core.prices import PlanPrice, vm_price
from tui.core.spec import JobSpec

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

TRAIN = """
import os, sys, time
print("step 1", flush=True)
if os.environ["RANK"] == "1":
    time.sleep(0.5)
    raise SystemExit(3)
time.sleep(2.5)
"""


def _doctor(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui", "doctor", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=120,
    )


def test_the_doctor_says_where_the_jobs_time_went_and_what_it_cost(backend, tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(tmp_path), script="train.py")
    job = backend.submit(local_plan(spec))
    status = backend.wait(job, timeout=60)
    assert status.state is JobState.FAILED and status.failed_rank == 1

    out = _doctor(job.name, "--json", "--vm-size", "Standard_ND96asr_v4")
    told = json.loads(out.stdout)
    timeline = told["timeline"]
    assert [p["phase"] for p in timeline] == [
        "starting its processes here",
        "running",
        "after rank 1 failed, until the job ended",
    ]
    spans = [(datetime.fromisoformat(p["from"]), datetime.fromisoformat(p["to"])) for p in timeline]
    assert all(a[1] == b[0] for a, b in pairwise(spans))  # end to end
    assert spans[0][0] == status.created_at and spans[-1][1] == status.ended_at
    assert sum(p["seconds"] for p in timeline) == pytest.approx(
        (status.ended_at - status.created_at).total_seconds(), abs=0.01
    )
    assert 0.3 < timeline[1]["seconds"] < 2.0  # rank 1 ended about 0.5 s in
    assert 0 <= timeline[2]["seconds"] < 3.0  # rank 0 stopped by the launcher (grace 2 s)
    hourly = PlanPrice("Standard_ND96asr_v4", 1, vm_price("Standard_ND96asr_v4")).dedicated
    cost = hourly * timeline[1]["seconds"] / 3600  # --json rounds it to four places
    assert timeline[1]["cost"] == pytest.approx(cost, rel=0.01, abs=6e-5)
    assert timeline[0]["cost"] is None  # not said: when the nodes were billed from

    shown = _doctor(job.name, "--vm-size", "Standard_ND96asr_v4").stdout
    assert "timeline: starting its processes here" in shown
    assert "after rank 1 failed, until the job ended" in shown
    assert "in all" in shown
