"""The local backend's parts without running a job: splitting launcher output, reading launcher
verdicts, what gets launched for each kind of plan, and the errors submit gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.backends.conftest import BIN, SAMPLES, local_plan
from tui.backends.base import Backend, BackendError, JobHandle, JobState, JobStatus
from tui.backends.local import LocalBackend
from tui.backends.local.jobdir import tail_lines
from tui.backends.local.launch import build_launches
from tui.backends.local.streams import StreamRouter, mpirun_first_failure, root_cause
from tui.core.spec import JobSpec
from tui.frameworks.pytorch import ELASTIC_ROOT_CAUSE
from tui.planning.plan import plan

SPEC = JobSpec(nodes=2, gpus_per_node=2, sku=None, code=str(SAMPLES), script="train_ddp.py")


def router(tmp_path: Path) -> tuple[StreamRouter, Path]:
    stream = tmp_path / "node_1.txt"
    logs = {2: tmp_path / "r2.txt", 3: tmp_path / "r3.txt"}
    return StreamRouter(stream, logs, tmp_path / "r2.txt"), stream


def test_router_splits_tagged_lines_per_rank_and_keeps_launcher_lines_on_the_default(tmp_path):
    r, stream = router(tmp_path)
    stream.write_bytes(
        b"W1121 torchrun says hello\n"
        b"[dtrain-tui rank 2] DTRAIN_ENV {}\n"
        b"[dtrain-tui rank 3] partial"  # a worker's unfinished line ...
        b"[dtrain-tui rank 2] epoch 0\n"
        b"[dtrain-tui rank 3]  done\n"  # ... completed by its next chunk
    )
    r.pump()
    assert (
        tmp_path / "r2.txt"
    ).read_bytes() == b"W1121 torchrun says hello\nDTRAIN_ENV {}\nepoch 0\n"
    assert (tmp_path / "r3.txt").read_bytes() == b"partial done\n"
    assert r.launcher_text() == "W1121 torchrun says hello\n"


def test_router_waits_for_a_tag_cut_between_two_reads(tmp_path):
    r, stream = router(tmp_path)
    stream.write_bytes(b"[dtrain-tui rank 3] a\n[dtrain-tu")
    r.pump()
    assert (tmp_path / "r3.txt").read_bytes() == b"a\n"
    assert not (tmp_path / "r2.txt").exists()
    with stream.open("ab") as f:
        f.write(b"i rank 3] b\n")
    r.pump()
    assert (tmp_path / "r3.txt").read_bytes() == b"a\nb\n"
    with stream.open("ab") as f:
        f.write(b"progress [")
    r.pump(final=True)  # at the end nothing is held back
    assert (tmp_path / "r2.txt").read_bytes() == b"progress ["


def test_launcher_verdicts_are_read_from_their_failure_summaries():
    torchrun = """
    train.py FAILED
    Failures:
      <NO_OTHER_FAILURES>
    Root Cause (first observed failure):
    [0]:
      time      : 2025-01-01_00:00:00
      host      : vm
      rank      : 3 (local_rank: 1)
      exitcode  : 7 (pid: 1234)
    """
    assert root_cause(ELASTIC_ROOT_CAUSE, torchrun) == (3, 7)
    assert root_cause(ELASTIC_ROOT_CAUSE, "no failure here") is None
    assert root_cause(None, torchrun) is None  # a launcher without a summary
    mpi = (
        "The first process to do so was:\n\n   Process name: [prterun-vm-6641@1,3]\n   Exit code: 9"
    )
    assert mpirun_first_failure(mpi) == (3, 9)
    assert mpirun_first_failure("Process name: [[1234,1],2]\n  Exit code: 1") == (2, 1)


def test_tail_lines_collapses_progress_bars(tmp_path):
    log = tmp_path / "log.txt"
    log.write_bytes(b"one\r\ntwo\n10%\r50%\r100%\n\n")
    assert tail_lines(log) == ["one", "two", "100%"]
    assert tail_lines(tmp_path / "missing.txt") == []


def test_status_summary_names_the_failing_rank():
    failed = JobStatus(JobState.FAILED, failed_rank=3, exit_code=-9)
    assert failed.summary() == "Failed: rank 3 was killed by signal 9 (SIGKILL)"
    assert failed.is_terminal and not JobStatus(JobState.RUNNING).is_terminal
    assert JobStatus(JobState.CANCELED, message="the app exited").summary() == (
        "Canceled: the app exited"
    )
    handle = JobHandle("local", "job-1", "/tmp/job-1")
    assert JobHandle.from_dict(handle.to_dict()) == handle


def test_local_backend_is_a_backend(tmp_path):
    assert isinstance(LocalBackend(tmp_path), Backend)


def test_each_rank_gets_its_own_gpu_when_there_are_gpus(tmp_path):
    p = local_plan(SPEC)
    launches = build_launches(
        p, tmp_path, bin_dir=BIN, gpus=["0", "1", "2", "3"], environ={"PATH": "/bin"}
    ).launches
    assert [launch.env["CUDA_VISIBLE_DEVICES"] for launch in launches] == ["0", "1", "2", "3"]
    assert launches[0].env["PATH"] == f"{BIN}:/bin"
    assert launches[3].env["RANK"] == "3" and launches[3].env["PYTHONUNBUFFERED"] == "1"
    per_node = build_launches(
        local_plan(SPEC.with_changes(launch="per_node")),
        tmp_path,
        bin_dir=BIN,
        gpus=["0", "1", "2", "3"],
        environ={},
    )
    assert [launch.env["CUDA_VISIBLE_DEVICES"] for launch in per_node.launches] == ["0,1", "2,3"]
    none = build_launches(p, tmp_path, bin_dir=BIN, gpus=[], environ={})
    assert all("CUDA_VISIBLE_DEVICES" not in launch.env for launch in none.launches)


def test_submit_refuses_a_plan_made_for_azureml(backend: LocalBackend):
    with pytest.raises(BackendError, match=r"Target.for_spec\('local', spec\)"):
        backend.submit(plan(SPEC))
    assert backend.jobs() == []


def test_submit_refuses_code_that_is_not_on_this_machine(backend: LocalBackend):
    with pytest.raises(BackendError, match="not on this machine"):
        backend.submit(local_plan(SPEC.with_changes(code="azureml:my-code:1")))


def test_unknown_jobs_are_reported_by_name(backend: LocalBackend):
    from tui.backends.base import JobNotFound

    with pytest.raises(JobNotFound, match="no local job named 'nope'"):
        backend.handle("nope")
    with pytest.raises(JobNotFound):
        backend.status(JobHandle("local", "nope"))


def test_the_supervisor_starts_light_and_the_backend_loads_no_ui_or_azure():
    import subprocess
    import sys

    probe = (
        "import sys, importlib; importlib.import_module(sys.argv[1]); "
        "print(' '.join(m for m in sys.modules if m.split('.')[0] in "
        "('textual', 'screens', 'widgets', 'pydantic', 'torch', 'httpx') "
        "or m.startswith('azure')))"
    )

    def loaded(module: str) -> set[str]:
        out = subprocess.run(
            [sys.executable, "-c", probe, module], capture_output=True, text=True, check=True
        )
        return {m.split(".")[0] for m in out.stdout.split()}

    assert loaded("tui.backends.local.supervisor") == set()  # stdlib only: it starts in ms
    assert loaded("tui.backends.local") <= {"pydantic", "httpx"}  # core and logs, nothing else
