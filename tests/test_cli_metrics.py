"""`dtrain-tui metrics NAME|PATH` as a notebook uses it: a real local job's progress, or a log
file's, as CSV or JSON."""

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


@pytest.mark.slow
def test_csv_has_a_row_per_point_with_its_epoch(finished_job):
    out = metrics(finished_job.name)
    assert out.returncode == 0, out.stderr
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert rows[0] == ["metric", "step", "epoch", "value", "index"]
    rows = [row[:4] for row in rows]
    assert ["loss", "10", str(1 / 3), "2.0"] in rows and ["loss", "30", "1", "0.667"] in rows
    assert ["lr", "20", str(2 / 3), "5e-05"] in rows
    assert len(rows) == 1 + 3 * 2  # loss and lr at three steps; the Namespace line is not one


@pytest.mark.slow
def test_json_for_another_rank(finished_job):
    out = metrics(finished_job.name, "--rank", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["log"] == "user_logs/std_log_process_1.txt"
    loss = data["series"]["loss"]
    assert (loss["step"], loss["value"]) == ([10, 20, 30], [3.0, 2.0, 1.667])
    assert loss["source"] == "log" and loss["validation"] is False
    assert data["standing"]["step"] == 30 and data["standing"]["epoch"] == 1.0


@pytest.mark.slow
def test_unknown_job_and_rank_are_one_line_errors(finished_job):
    out = metrics("no-such-job")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    out = metrics(finished_job.name, "--rank", "7")
    assert out.returncode == 2
    assert out.stderr.strip().endswith("has no log for rank 7 (ranks 0-1)")


# A finished run's log, as nanoGPT prints it: timestamped steps and an evaluation line.
NANOGPT = """\
2023-03-22 09:30:39 iter 2920: loss 3.9883, time 1099.34ms, mfu 15.34%
2023-03-22 09:31:39 iter 2980: loss 3.9751, time 1099.34ms, mfu 15.34%
2023-03-22 09:32:32 step 3000: train loss 4.0390, val loss 4.0427
saving checkpoint to out
2023-03-22 09:32:52 iter 3010: loss nan, time 1019.95ms, mfu 14.12%
"""


def test_a_log_file_gives_csv_with_epochs_and_validation_apart(tmp_path: Path):
    log = tmp_path / "train.log"
    log.write_text("Epoch 1/2\n 422/422 - 2s - loss: 0.2493 - val_loss: 0.0795\n" + NANOGPT)
    out = metrics(str(log))
    assert out.returncode == 0, out.stderr
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert rows[0] == ["metric", "step", "epoch", "value", "index"]
    rows = [row[:4] for row in rows]
    assert ["loss", "422", "1", "0.2493"] in rows and ["val_loss", "422", "1", "0.0795"] in rows
    points = [(metric, step, value) for metric, step, _, value in rows[1:]]
    assert ("loss", "3000", "4.039") in points and ("val_loss", "3000", "4.0427") in points
    assert not any("nan" in point for point in points)  # the nan loss is no point


def test_a_finished_log_file_has_a_rate_from_its_printed_times(tmp_path: Path):
    log = tmp_path / "train.log"
    log.write_text(NANOGPT)
    out = metrics(str(log), "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["job"] is None and data["log"] == str(log)
    assert data["standing"]["step"] == 3010
    assert data["standing"]["steps_per_second"] == pytest.approx(90 / 133)  # 2920 → 3010
    assert data["series"]["val_loss"]["validation"] is True


def test_a_slowly_read_log_gets_no_rate_from_its_reading(tmp_path: Path, monkeypatch, capsys):
    """Steps with no bar and no printed time have no rate: the one measured while reading a
    big log (a second a step here) is the parse's speed, not training's."""
    import itertools

    from tui.cli.commands import main
    from tui.logs import progress

    clock = itertools.count()
    monkeypatch.setattr(progress.time, "monotonic", lambda: float(next(clock)))
    log = tmp_path / "train.log"
    log.write_text("".join(f"step {i} | loss {2 - i / 100:.3f}\n" for i in range(1, 60)))
    assert main(["metrics", str(log), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["standing"]["step"] == 59
    assert data["standing"]["steps_per_second"] is None


def test_junk_in_a_log_file_is_no_traceback_and_no_broken_point(tmp_path: Path):
    log = tmp_path / "junk.log"
    with log.open("wb") as f:
        f.write(b"step 1: loss 2.5\n")
        f.write(b"x" * (100 << 20) + b" loss 1.0\n")  # a 100 MB line
        f.write(bytes(range(256)) * 64 + b"\n")  # binary junk
        f.write(b"step 2: loss nan\nstep 3: loss inf\nstep 4: loss 1e999\nstep 5: loss -0.5\n")
        f.write(b"\xff\xfe step 6: loss 0.25\r")
    out = metrics(str(log))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert [r for r in rows if r[0] == "loss"] == [
        ["loss", "1", "", "2.5", "1"],
        ["loss", "5", "", "-0.5", "2"],
        ["loss", "6", "", "0.25", "3"],
    ]


def test_a_missing_log_file_is_a_one_line_error(tmp_path: Path):
    out = metrics(str(tmp_path / "nope.log"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and out.stdout == ""
