"""`dtrain-tui metrics NAME` as a notebook uses it: a real local job's progress as CSV or JSON."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

job_root = backends.job_root
backend = backends.backend
ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow

# What Hugging Face's Trainer prints, and a line that only looks like progress.
TRAIN = """
import os
rank = int(os.environ["RANK"])
print("Namespace(lr=0.1, epochs=3)")
for step in range(1, 4):
    print({"loss": round(2.0 / step + rank, 3), "learning_rate": 5e-05, "epoch": step / 3,
           "step": step * 10})
"""


def metrics(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tui", "metrics", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),  # DTRAIN_TUI_HOME from the job_root fixture
        timeout=60,
    )


@pytest.fixture
def finished_job(backend: LocalBackend, tmp_path: Path):
    code = tmp_path / "code"
    code.mkdir()
    (code / "train.py").write_text(TRAIN)
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(code), script="train.py")
    job = backend.submit(local_plan(spec))
    backend.wait(job, timeout=60)
    return job


def test_csv_has_a_row_per_point(finished_job):
    out = metrics(finished_job.name)
    assert out.returncode == 0, out.stderr
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert rows[0] == ["metric", "step", "value"]
    assert ["loss", "10", "2.0"] in rows and ["loss", "30", "0.667"] in rows
    assert ["lr", "20", "5e-05"] in rows
    assert len(rows) == 1 + 3 * 2  # loss and lr at three steps; the Namespace line is not one


def test_json_for_another_rank(finished_job):
    out = metrics(finished_job.name, "--rank", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["log"] == "user_logs/std_log_process_1.txt"
    assert data["series"]["loss"] == {
        "source": "log",
        "step": [10, 20, 30],
        "value": [3.0, 2.0, 1.667],
    }
    assert data["standing"]["step"] == 30 and data["standing"]["epoch"] == 1.0


def test_unknown_job_and_rank_are_one_line_errors(finished_job):
    out = metrics("no-such-job")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    out = metrics(finished_job.name, "--rank", "7")
    assert out.returncode == 2
    assert out.stderr.strip().endswith("has no log for rank 7 (ranks 0-1)")
