"""The local backend runs real jobs: what each rank receives is what the plan says.

Real processes, real torchrun and mpirun, no mocks. Each job's ranks print the environment they
received (`DTRAIN_ENV {...}`); every variable of the plan must be there with the plan's value,
and anything else must be inherited from this process or be one of the few things running on
one machine adds (listed below, with why).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.backends.conftest import SAMPLES, dumped_env, local_plan, require
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.planning.plan import LaunchPlan
from tui.planning.presets import get_preset

pytestmark = pytest.mark.slow

# Set by running here rather than by the plan: unbuffered logs, this venv first on PATH, what
# bash sets when it runs the command.
LOCAL_EXTRAS = {"PYTHONUNBUFFERED", "PATH", "PWD", "OLDPWD", "SHLVL", "_"}
# Set by torchrun for its workers but not in the plan (a random per-run path), and the three
# variables the backend gives torchrun so it tags each worker line with its rank (PET_* are its
# CLI options).
TORCHRUN_EXTRAS = {
    "TORCHELASTIC_ERROR_FILE",
    "PET_TEE",
    "PET_LOG_DIR",
    "TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE",
}
OPENMPI_EXTRA = re.compile(r"(OMPI|PMIX|PRTE|OPAL)_|LD_LIBRARY_PATH\Z")


def check_env_per_rank(
    p: LaunchPlan, job_dir: Path, inherited: dict[str, str], extras: set[str]
) -> None:
    """Each rank saw exactly the plan's values; anything else is inherited or an allowed extra."""
    mpi = p.distribution.type == "mpi"
    for r in p.ranks:
        got = dumped_env(job_dir / r.log_file)
        # The stand-in scripts here import no framework, so what one sets in its own process
        # is not there (test_framework_runs checks it with the real frameworks).
        wanted = {v.name: v.value for v in r.env if not v.origin.in_process}
        assert {k: got.get(k) for k in wanted} == wanted, f"rank {r.rank} ({r.log_file})"
        unexplained = {
            k
            for k, v in got.items()
            if k not in wanted
            and inherited.get(k) != v
            and k not in extras
            and not (mpi and OPENMPI_EXTRA.match(k))
        }
        assert not unexplained, f"rank {r.rank} got variables the plan does not list: {unexplained}"


def ddp_spec(preset: str):
    return get_preset(preset).spec.with_changes(
        sku=None, nodes=2, gpus_per_node=2, args=("--epochs", "2")
    )


def test_pytorch_ddp_per_process_2x2_completes_with_the_plans_env(backend: LocalBackend):
    require("torch")
    p = local_plan(ddp_spec("pytorch-ddp"))
    inherited = dict(os.environ)
    job = backend.submit(p)
    status = backend.wait(job, timeout=120)
    job_dir = Path(job.location)
    assert status.state is JobState.COMPLETED, (job_dir / p.ranks[0].log_file).read_text()[-3000:]

    rank_logs = [f"user_logs/std_log_process_{i}.txt" for i in range(4)]
    assert list(backend.log_sources(job))[:4] == rank_logs
    assert "system_logs/launcher.txt" in backend.log_sources(job)
    rank0 = (job_dir / rank_logs[0]).read_text()
    assert re.search(r"^epoch 1 loss \d+\.\d+$", rank0, re.M)
    assert "world size 4, backend gloo" in rank0
    check_env_per_rank(p, job_dir, inherited, LOCAL_EXTRAS)
    # It ran in a snapshot of the code, as on Azure ML: outputs land in the job, not in presets/.
    assert (job_dir / "code" / "outputs" / "model.pt").is_file()
    assert not (SAMPLES / "outputs").exists()
    assert status.started_at and status.ended_at and status.started_at < status.ended_at


def test_pytorch_per_node_through_real_torchrun_splits_output_per_rank(backend: LocalBackend):
    require("torch", "torchrun")
    p = local_plan(ddp_spec("pytorch-torchrun"))
    assert p.launcher == "torchrun" and p.nodes[1].command.startswith("torchrun --nnodes 2")
    inherited = dict(os.environ)
    job = backend.submit(p)
    status = backend.wait(job, timeout=120)
    job_dir = Path(job.location)
    assert status.state is JobState.COMPLETED, (job_dir / p.ranks[0].log_file).read_text()[-3000:]

    check_env_per_rank(p, job_dir, inherited, LOCAL_EXTRAS | TORCHRUN_EXTRAS)
    logs = {r.rank: (job_dir / r.log_file).read_text() for r in p.ranks}
    assert re.search(r"^epoch 1 loss \d+\.\d+$", logs[0], re.M)
    for rank, text in logs.items():
        assert text.count("DTRAIN_ENV ") == 1, f"rank {rank} log holds another rank's output"
        assert not re.search(r"\[dtrain-tui rank \d+\]", text)  # the tags are stripped


def test_mpi_2x2_through_real_mpirun_gives_each_rank_the_azureml_mpi_vars(backend: LocalBackend):
    require("mpirun")
    from tui.core.spec import JobSpec

    spec = JobSpec(
        framework="horovod",
        nodes=2,
        gpus_per_node=2,
        sku=None,
        code=str(SAMPLES),
        script="mpi_env_check.py",
        env={"MY_SETTING": "two words"},
    )
    p = local_plan(spec)
    inherited = dict(os.environ)
    job = backend.submit(p)
    status = backend.wait(job, timeout=60)
    job_dir = Path(job.location)
    assert status.state is JobState.COMPLETED, (job_dir / "user_logs/mpi_log.txt").read_text()
    assert "user_logs/mpi_log.txt" in backend.log_sources(job)
    master = f"127.0.0.1:{p.target.master_port}"
    for r in p.ranks:
        got = dumped_env(job_dir / f"user_logs/std_log_process_{r.rank}.txt")
        assert got["OMPI_COMM_WORLD_RANK"] == str(r.rank)
        assert got["OMPI_COMM_WORLD_SIZE"] == "4"
        assert got["AZ_BATCH_MASTER_NODE"] == master
        assert got["MY_SETTING"] == "two words"
        assert "rendezvous ok" in (job_dir / r.log_file).read_text()
    check_env_per_rank(p, job_dir, inherited, LOCAL_EXTRAS)


def test_tensorflow_2_workers_1_ps_each_task_gets_the_plans_tf_config(backend: LocalBackend):
    from tui.core.spec import JobSpec

    spec = JobSpec(
        framework="tensorflow",
        launch="per_node",
        nodes=2,
        parameter_servers=1,
        gpus_per_node=1,
        sku=None,
        code=str(SAMPLES),
        script="tf_config_check.py",
    )
    p = local_plan(spec)
    inherited = dict(os.environ)
    job = backend.submit(p)
    status = backend.wait(job, timeout=60)
    job_dir = Path(job.location)
    assert status.state is JobState.COMPLETED, status
    names = [r.log_file for r in p.ranks]
    assert names == [
        "user_logs/std_log_node_00_worker.txt",
        "user_logs/std_log_node_01_worker.txt",
        "user_logs/std_log_node_00_ps.txt",
    ]
    assert list(backend.log_sources(job))[:3] == names
    for r in p.ranks:
        got = dumped_env(job_dir / r.log_file)
        assert got["TF_CONFIG"] == r.env_dict()["TF_CONFIG"]
        config = json.loads(got["TF_CONFIG"])
        assert config["task"] == {"type": r.role, "index": r.task_index}
        assert "TF_CONFIG ok: 3 tasks agree" in (job_dir / r.log_file).read_text()
    check_env_per_rank(p, job_dir, inherited, LOCAL_EXTRAS)
