"""Every framework's preset rehearsed for real: its example, its own launcher, 2 nodes × 2 ranks.

Each test runs a shipped preset's local form (the example in presets/scripts/) with the real
framework on the CPU, waits for it, and checks what a user relies on: the job completed, rank 0
(the chief for TensorFlow) printed a loss line, and every rank dumped exactly the environment the
plan's review showed, including what accelerate, Lightning, DeepSpeed and TensorFlow set in the
process themselves. A framework that is not installed fails its test with the command that
installs it. Two of the guide's pitfalls are reproduced once each: Lightning's num_nodes
disagreeing with the job, and DeepSpeed's train_batch_size check. The guide's other forms run
too, on one node × 2 where a second node adds nothing: Hugging Face through torchrun, and
DeepSpeed under Azure ML's mpi distribution (mpirun, one process per GPU).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.backends.conftest import SAMPLES, dumped_env, local_plan, require
from tests.backends.test_local_runs import LOCAL_EXTRAS, OPENMPI_EXTRA, TORCHRUN_EXTRAS
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.frameworks.deepspeed import DEEPSPEED
from tui.frameworks.deepspeed_config import user_config_problems
from tui.planning.plan import LaunchPlan
from tui.planning.presets import REHEARSAL, get_preset

pytestmark = pytest.mark.slow

# Set inside a process by torch itself, whatever the launcher: torch's compiler cache folder
# (/tmp/torchinductor_<user>), which torch._inductor puts in os.environ when a framework touches
# it. Not a launch setting, so the plan leaves it out.
TORCH_IN_PROCESS = {"TORCHINDUCTOR_CACHE_DIR"}
TIMEOUT = 300  # seconds; DeepSpeed's first run on a machine compiles its CPU comm op


@pytest.fixture(scope="session")
def _torch_extensions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("torch_extensions")


@pytest.fixture
def op_cache(_torch_extensions: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One torch extension cache for the run's DeepSpeed jobs: DeepSpeed compiles its CPU comm
    op into it at the first job, and each test's own HOME would otherwise make every job
    compile it again (30-90 s each)."""
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(_torch_extensions))


def require_framework(*modules: str, extra: str) -> None:
    """Fail (never skip) naming the extra that installs what the test needs."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        pytest.fail(
            f"{', '.join(missing)} not installed in {sys.prefix}: run "
            f"`.venv/bin/pip install -e '.[{extra}]' 'torch==2.13.0'` (or `bash tests/setup.sh`)",
            pytrace=False,
        )


def preset_here(name: str, **changes):
    """The preset's local form: 2 simulated nodes × 2 processes (TF: tasks), no VM size."""
    return get_preset(name).spec.with_changes(**(REHEARSAL | changes))


def run(backend: LocalBackend, p: LaunchPlan, state: JobState = JobState.COMPLETED):
    job = backend.submit(p)
    status = backend.wait(job, timeout=TIMEOUT)
    job_dir = Path(job.location)
    first = job_dir / p.ranks[0].log_file
    assert status.state is state, f"{status.message}\n{first.read_text()[-3000:]}"
    return status, job_dir


def check_env(p: LaunchPlan, job_dir: Path, inherited: dict[str, str], extras: set[str]) -> None:
    """Each rank saw the plan's value for every variable (any value where the plan shows a
    `<placeholder>`), and nothing the plan does not list beyond inherited and allowed extras."""
    mpi = p.distribution.type == "mpi"
    for r in p.ranks:
        got = dumped_env(job_dir / r.log_file)
        for name, value in r.env_dict().items():
            assert name in got, f"rank {r.rank}: the plan lists {name}, the run lacks it"
            if not (value.startswith("<") and value.endswith(">")):
                assert got[name] == value, f"rank {r.rank}: {name}"
        unlisted = {
            k
            for k, v in got.items()
            if k not in r.env_dict()
            and inherited.get(k) != v
            and k not in extras | LOCAL_EXTRAS | TORCH_IN_PROCESS
            and not (mpi and OPENMPI_EXTRA.match(k))
        }
        assert not unlisted, f"rank {r.rank} got variables the plan does not list: {unlisted}"


def rank0(p: LaunchPlan, job_dir: Path) -> str:
    return (job_dir / p.ranks[0].log_file).read_text(encoding="utf-8", errors="replace")


def test_lightning_preset_trains_with_the_plans_num_nodes_and_env(backend: LocalBackend):
    require_framework("torch", "lightning", extra="lightning")
    p = local_plan(preset_here("lightning"))
    shape = "--trainer.num_nodes 2 --trainer.devices 2"
    assert p.nodes[0].command == f"python train_lightning.py {shape}"
    inherited = dict(os.environ)
    _, job_dir = run(backend, p)
    log = rank0(p, job_dir)
    assert "world size 4, strategy ddp" in log
    assert re.search(r"^epoch 1 loss \d+\.\d+$", log, re.M)
    check_env(p, job_dir, inherited, set())
    env = p.ranks[0].env_dict()
    assert env["OMP_NUM_THREADS"] == str(max(1, p.target.cpus // 2))  # Lightning: cores ÷ 2


def test_lightning_num_nodes_that_disagrees_with_the_job_fails_the_way_the_cluster_would(
    backend: LocalBackend,
):
    """The guide's multi-node pitfall: num_nodes=1 on a 2-node job. Node 0's two ranks think
    they are the whole job; node 1's ranks get global ranks 2 and 3 of a world of 2."""
    require_framework("torch", "lightning", extra="lightning")
    command = "python train_lightning.py --trainer.num_nodes 1 --trainer.devices 2 --timeout 30"
    p = local_plan(preset_here("lightning", command=command))
    status, _ = run(backend, p, JobState.FAILED)
    assert status.failed_rank in (2, 3)
    # Gloo refuses rank 2 of a world of 2; or, when node 0 finished before node 1 started, node
    # 1's ranks time out waiting for the rendezvous node 0 has closed.
    error = r"rank < size\. [23] vs 2|timed out"
    assert re.search(error, "\n".join(status.last_lines)), status.last_lines


def test_huggingface_preset_through_accelerate_launch_per_node(backend: LocalBackend):
    require_framework("torch", "transformers", "accelerate", extra="huggingface")
    p = local_plan(preset_here("huggingface"))
    assert p.launcher == "accelerate"
    inherited = dict(os.environ)
    _, job_dir = run(backend, p)
    log = rank0(p, job_dir)
    assert "world size 4, distributed" in log  # DDP over the 4 ranks, not 4 lone trainings
    assert re.search(r"^\{'loss': '\d+\.\d+'", log, re.M)  # the Trainer's log dict, rank 0 only
    for r in p.ranks:
        text = (job_dir / r.log_file).read_text()
        assert text.count("DTRAIN_ENV ") == 1, f"rank {r.rank} log holds another rank's output"
    check_env(p, job_dir, inherited, TORCHRUN_EXTRAS)
    launcher = (job_dir / "system_logs/launcher.txt").read_text()
    assert "--tee 3" in launcher  # the one change to the command here, and it is said


def test_huggingface_preset_through_torchrun_per_node(backend: LocalBackend):
    """The guide's other Hugging Face form: torchrun per node, no accelerate launcher. One node
    × 2 workers: the 2-node torchrun rendezvous is the PyTorch per-node test's."""
    # transformers' Trainer imports DeepSpeed where it is installed (the ACPT images have it),
    # which sets PYTORCH_NVML_BASED_CUDA_CHECK; the plan lists it, so the run needs DeepSpeed.
    require_framework(
        "torch", "transformers", "accelerate", "deepspeed", extra="huggingface,deepspeed"
    )
    p = local_plan(preset_here("huggingface", hf_launcher="torchrun", nodes=1))
    assert p.launcher == "torchrun"
    assert p.nodes[0].command.startswith("torchrun --nnodes 1 --nproc_per_node 2 --node_rank 0")
    inherited = dict(os.environ)
    _, job_dir = run(backend, p)
    log = rank0(p, job_dir)
    assert "world size 2, distributed" in log
    assert re.search(r"^\{'loss': '\d+\.\d+'", log, re.M)
    for r in p.ranks:
        text = (job_dir / r.log_file).read_text()
        assert text.count("DTRAIN_ENV ") == 1, f"rank {r.rank} log holds another rank's output"
    check_env(p, job_dir, inherited, TORCHRUN_EXTRAS)


def test_deepspeed_preset_initializes_zero_2_from_its_config(backend: LocalBackend, op_cache: None):
    require_framework("torch", "deepspeed", extra="deepspeed")
    p = local_plan(preset_here("deepspeed"))
    assert p.nodes[0].command.endswith("--deepspeed --deepspeed_config ds_config.json")
    trains_zero_2(backend, p)


def trains_zero_2(backend: LocalBackend, p: LaunchPlan) -> None:
    """The example completed, rank 0 trained with ZeRO-2 and the batch DeepSpeed computed
    (micro batch 8 × accumulation 1 × world), and every rank's env is the plan's."""
    inherited = dict(os.environ)
    _, job_dir = run(backend, p)
    log = rank0(p, job_dir)
    world = p.world_size
    assert f"world size {world}, ZeRO stage 2, train_batch_size {8 * world}" in log
    assert re.search(r"^step 3 loss \d+\.\d+$", log, re.M)
    check_env(p, job_dir, inherited, set())


def test_deepspeed_under_mpirun_takes_its_ranks_from_open_mpi(
    backend: LocalBackend, op_cache: None
):
    """The guide's other DeepSpeed form: Azure ML's mpi distribution, one process per GPU. No
    process gets RANK; deepspeed.init_distributed() maps Open MPI's variables itself, and the
    plan shows what it sets, the port included. One node × 2: every simulated node is this one
    host, so 2 × 2 takes DeepSpeed's same one-host path at twice the start-up."""
    require_framework("torch", "deepspeed", extra="deepspeed")
    require("mpirun")
    p = local_plan(preset_here("deepspeed", deepspeed_via="mpi", nodes=1))
    assert p.distribution.as_yaml() == {"type": "mpi", "process_count_per_instance": 2}
    assert p.command == "python train_deepspeed.py --deepspeed --deepspeed_config ds_config.json"
    env = {v.name: v for v in p.ranks[1].env}
    assert (env["RANK"].value, env["RANK"].origin) == ("1", DEEPSPEED)
    assert env["MASTER_PORT"].value == "54965"  # DeepSpeed's own port when ranks share a host
    trains_zero_2(backend, p)


def test_deepspeed_refuses_a_train_batch_size_that_is_not_micro_x_accum_x_world(
    backend: LocalBackend, tmp_path: Path, op_cache: None
):
    require_framework("torch", "deepspeed", extra="deepspeed")
    code = tmp_path / "code"
    code.mkdir()
    shutil.copy(SAMPLES / "train_deepspeed.py", code)
    shutil.copy(SAMPLES / "dtrain_env.py", code)  # its DTRAIN_ENV line
    config = json.loads((SAMPLES / "ds_config.json").read_text()) | {"train_batch_size": 24}
    (code / "ds_config.json").write_text(json.dumps(config))
    # One node × 2 processes: DeepSpeed checks the arithmetic at initialize on every rank; two
    # ranks show it as well as four at half the start-up (each rank imports DeepSpeed).
    p = local_plan(preset_here("deepspeed", code=str(code), nodes=1))
    # The review warned before anything ran.
    assert "train_batch_size is 24" in " ".join(user_config_problems(p.spec, p.world_size))
    status, _ = run(backend, p, JobState.FAILED)
    assert (
        "AssertionError: Check batch related parameters. train_batch_size is not equal to "
        "micro_batch_per_gpu * gradient_acc_step * world_size 24 != 8 * 1 * 2"
    ) in "\n".join(status.last_lines)


def test_tensorflow_multi_worker_mirrored_preset_trains_on_two_workers(backend: LocalBackend):
    require_framework("tensorflow", extra="tensorflow")
    p = local_plan(preset_here("tensorflow-mwms"))
    inherited = dict(os.environ)
    _, job_dir = run(backend, p)
    log = rank0(p, job_dir)  # worker 0, the chief
    assert "workers 2, chief {'type': 'worker', 'index': 0}" in log
    assert re.search(r"^epoch 1 loss \d+\.\d+$", log, re.M)
    check_env(p, job_dir, inherited, set())


def test_tensorflow_parameter_server_preset_with_coordinator_worker_and_ps(
    backend: LocalBackend,
):
    require_framework("tensorflow", extra="tensorflow")
    p = local_plan(preset_here("tensorflow-ps"))
    assert [(r.role, r.task_index) for r in p.ranks] == [("worker", 0), ("worker", 1), ("ps", 0)]
    inherited = dict(os.environ)
    _, job_dir = run(backend, p)
    log = rank0(p, job_dir)  # worker 0, which the example makes the coordinator
    assert "coordinator: 1 workers, 1 ps" in log
    assert re.search(r"^epoch 1 loss \d+\.\d+$", log, re.M)
    ps = (job_dir / "user_logs/std_log_node_00_ps.txt").read_text()
    assert "ps 0: the coordinator has finished" in ps
    worker = (job_dir / "user_logs/std_log_node_01_worker.txt").read_text()
    assert "worker 0: the coordinator has finished" in worker
    check_env(p, job_dir, inherited, set())


def test_horovod_preset_is_rehearsed_as_a_labelled_mpi_env_check(backend: LocalBackend):
    """Horovod 0.28.1 does not build against torch 2.13 (see the README): the preset's local
    form is the MPI env check under the real mpirun, and its log says it is not Horovod."""
    p = local_plan(preset_here("horovod"))
    assert p.spec.script == "mpi_env_check.py"
    assert "MPI env check" in get_preset("horovod").title
    inherited = dict(os.environ)
    _, job_dir = run(backend, p)
    log = rank0(p, job_dir)
    assert "MPI env check, not Horovod: it trains nothing" in log
    assert "rendezvous ok: all 4 ranks reached" in log
    check_env(p, job_dir, inherited, set())
