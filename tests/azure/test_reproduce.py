"""`dtrain-tui reproduce NAME`: an Azure ML job run again here, small, and the failures compared.

The definition is read from the recorded job body (`data/job_create_201.json`) and from jobs the
emulator ran (their bodies are what azure-ai-ml sent); the code snapshot from Azurite, where the
emulator puts a registered folder as azure-ai-ml uploads it (`emulator_code`). The CLI runs in a
subprocess, signed in through a stand-in `az`, with no GPU visible.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.azure.conftest import SCRIPTS
from tests.azure.emulator import WorkspaceEmulator
from tests.azure.host_proxy import HostProxy
from tests.azure.test_cli_azure import cli_env, dtrain
from tests.azure.test_jobs_end_to_end import lines_job
from tests.azure.test_recorded import recorded
from tui.backends.azureml import AzureMLBackend
from tui.core.plan_types import Target
from tui.planning.job_import import ImportProblem
from tui.planning.reproduce import definition_from_body, local_command, reproduce


def _reproduction(body: dict, tmp_path: Path, **kwargs):
    return reproduce(
        definition_from_body(body),
        tmp_path / "code",
        tmp_path / "work",
        target=Target.local(2),
        gpus_here=0,
        python="Python 3.x",
        code_note="code: here",
        **kwargs,
    )


def test_the_recorded_job_body_becomes_its_definition(tmp_path) -> None:
    body = recorded("job_create_201.json")
    d = definition_from_body(body)
    assert d.name == "test_756573810826"
    assert d.mapping["command"] == "pip freeze"
    assert d.mapping["resources"] == {"instance_count": 1, "shm_size": "2g"}
    assert d.mapping["compute"] == "testCompute"
    assert d.environment == "azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu:33"
    assert d.code_id is None
    assert d.mapping["inputs"]["testdataset"]["type"] == "uri_folder"
    rep = _reproduction(body, tmp_path)
    assert rep.local.spec.launch == "single"  # no distribution: one process, as on the cluster
    assert rep.local.command == "pip freeze"
    (data,) = rep.replaced  # mounted on the cluster, though the command does not name it
    assert data.line() == (
        f"input testdataset: a stand-in folder {tmp_path / 'work/inputs/testdataset'} (it says "
        "what it replaces) instead of uri_folder azureml://datastores/workspaceblobstore/paths/"
        "LocalUpload/00000000000000000000000000000000/data/, which is not copied here"
    )
    assert rep.differences[0] == (
        "1 node, as on the cluster (not distributed: the command runs once on each node, with "
        "no rank variables)"
    )
    assert "instead of the job's environment azureml:AzureML-sklearn-1.0" in rep.differences[2]


def test_a_distributed_job_is_scaled_with_its_inputs_replaced(tmp_path) -> None:
    body = recorded("job_create_201.json")
    body["properties"].update(
        command="python train.py --data ${{inputs.testdataset}} --epochs ${{inputs.epochs}}"
        " [--seed ${{inputs.seed}}] --out ${{outputs.model}}",
        distribution={"distributionType": "PyTorch", "processCountPerInstance": 8},
        resources={"instanceCount": 4},
        environmentVariables={"NCCL_DEBUG": "INFO"},
    )
    body["properties"]["inputs"]["epochs"] = {"jobInputType": "literal", "value": "3"}
    body["properties"]["outputs"]["model"] = {"jobOutputType": "uri_folder", "uri": "azureml://x"}
    rep = _reproduction(body, tmp_path)
    data, model = tmp_path / "work/inputs/testdataset", tmp_path / "work/outputs/model"
    assert rep.local.command == f"python train.py --data {data} --epochs 3 --out {model}"
    assert rep.cluster.world_size == 32
    assert (rep.local.instance_count, rep.local.world_size) == (1, 2)
    envs = [r.env_dict() for r in rep.local.ranks]
    assert [(e["RANK"], e["LOCAL_RANK"], e["WORLD_SIZE"]) for e in envs] == [
        ("0", "0", "2"),
        ("1", "1", "2"),
    ]
    assert envs[1]["MASTER_ADDR"] == "127.0.0.1" and envs[1]["NCCL_DEBUG"] == "INFO"
    assert rep.differences[0].startswith(
        "1 node × 2 processes instead of 4 nodes × 8 processes: WORLD_SIZE 2 instead of 32"
    )
    assert rep.differences[1].startswith("no GPU here: the ranks run on CPUs")
    assert [r.name for r in rep.replaced] == ["testdataset", "model"]
    assert any(line.startswith("input testdataset: a stand-in folder") for line in rep.differences)


def test_a_job_that_is_not_a_command_job_is_refused_naming_its_kind() -> None:
    labeling = recorded("job_list_page.json")["value"][1]
    with pytest.raises(ImportProblem) as refused:
        definition_from_body(labeling)
    assert str(refused.value).startswith(
        "job labeling_project_1 is a Labeling job; only command jobs can be reproduced here"
    )


def test_optional_parts_without_their_input_are_left_out(tmp_path) -> None:
    body = recorded("job_create_201.json")
    body["properties"].update(command="python a.py [--seed ${{inputs.seed}}]", inputs={})
    command, replaced = local_command(definition_from_body(body), tmp_path)
    assert (command.strip(), replaced) == ("python a.py", ())


# ---- the CLI against the emulator ------------------------------------------------------------


def _ended(backend: AzureMLBackend, name: str, timeout: float = 60.0) -> str:
    job = backend.handle(name)
    deadline = time.monotonic() + timeout
    while not (status := backend.status(job)).is_terminal:
        assert time.monotonic() < deadline, "the emulated job did not end"
        time.sleep(0.2)
    return status.state.value


def _cluster_job(backend, emulator: WorkspaceEmulator, fail_rank: int | None, **changes) -> str:
    """A 2 × 2 job the emulator runs, whose rank `fail_rank` fails (None: none fails); its name
    once it ended."""
    emulator.run_jobs = True
    args = ("--lines", "6", "--every", "0.01")
    if fail_rank is not None:
        args += ("--fail-rank", str(fail_rank))
    job = backend.submit(lines_job(2, *args, gpus_per_node=2, **changes))
    assert _ended(backend, job.name) == ("Completed" if fail_rank is None else "Failed")
    return job.name


@pytest.fixture
def storage(emulator: WorkspaceEmulator) -> Iterator[HostProxy]:
    """Azurite reachable by the Azure-shaped URL the blob store's fields make
    (`devstoreaccount1.blob.localhost:PORT`), through a proxy."""
    with HostProxy(urlsplit(emulator.azurite.endpoint).port) as proxy:
        yield proxy


def _env(tmp_path, emulator, storage: HostProxy) -> dict[str, str]:
    env = cli_env(tmp_path, emulator)
    env["CUDA_VISIBLE_DEVICES"] = ""  # no GPU, whatever this machine has
    env["HTTP_PROXY"] = env["http_proxy"] = storage.url
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1"  # the emulator and SAS URLs: direct
    return env


@pytest.mark.slow
def test_a_failed_job_fails_here_with_the_same_cause(tmp_path, emulator, backend, storage) -> None:
    name = _cluster_job(backend, emulator, fail_rank=1)
    done = dtrain(["reproduce", name], _env(tmp_path, emulator, storage), tmp_path, timeout=120)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert f"Reproducing {name} (Failed on Azure ML" in out
    shape = "1 node × 2 processes instead of 2 nodes × 2 processes: WORLD_SIZE 2 instead of 4"
    assert shape in out
    assert "no GPU here: the ranks run on CPUs, so PyTorch's process group uses gloo" in out
    assert "and its packages instead of the job's environment azureml:AzureML-acpt" in out
    assert "code: the job's own snapshot (azureml:" in out
    assert "rank 0 started with WORLD_SIZE=2" in out  # rank 0's log, as it ran here
    assert "on the cluster: Exception in the training script (rank 1)" in out
    assert "here: Exception in the training script (rank 1)" in out
    assert "same failure here: Exception in the training script." in out


@pytest.mark.slow
def test_a_failure_of_a_rank_that_does_not_exist_here_fails_only_at_scale(
    tmp_path, emulator, backend, storage
) -> None:
    name = _cluster_job(backend, emulator, fail_rank=3)
    done = dtrain(["reproduce", name], _env(tmp_path, emulator, storage), tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "here: completed (proven healthy)" in done.stdout
    assert (
        "none here: it fails only at scale: the cause is likely rank 3, which does not exist "
        "at 1 × 2 (WORLD_SIZE 2)"
    ) in done.stdout


@pytest.mark.slow
def test_an_unreadable_snapshot_says_why_and_suggests_code(
    tmp_path, emulator, backend, storage
) -> None:
    # A folder the workspace has no files of: the code version exists, its blobs do not.
    code = tmp_path / "src"
    code.mkdir()
    shutil.copy(SCRIPTS / "lines.py", code / "lines.py")
    (code / "marker.txt").write_text(str(tmp_path))
    job = backend.submit(lines_job(1, code=str(code)))
    env = _env(tmp_path, emulator, storage)

    done = dtrain(["reproduce", job.name], env, tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(
        f"dtrain-tui: error: the code snapshot of job {job.name} cannot be read: code asset "
        "azureml:"
    )
    assert "holds no files at https://" in line
    assert line.endswith("; pass --code FOLDER to run a local copy of its code")

    dry = dtrain(["reproduce", job.name, "--code", str(code), "--dry-run"], env, tmp_path)
    assert dry.returncode == 0, dry.stderr
    first, *_ = dry.stderr.splitlines()
    assert first.startswith(f"dtrain-tui: the code snapshot of job {job.name} cannot be read")
    assert first.endswith(f"; using --code {code}")
    assert f"code: {code} (--code) instead of the job's snapshot" in dry.stdout
    assert "std_log_process_0.txt" in dry.stdout  # the plan: per-rank env and logs
    assert "WORLD_SIZE" in dry.stdout
    assert not list((tmp_path / "home").glob("state/jobs/*"))  # nothing started


@pytest.mark.slow
def test_a_completed_job_reproduces_and_completes(tmp_path, emulator, backend, storage) -> None:
    data = {"type": "uri_folder", "path": "azureml://datastores/workspaceblobstore/paths/data/"}
    name = _cluster_job(backend, emulator, None, passthrough={"inputs": {"data": data}})
    done = dtrain(["reproduce", name], _env(tmp_path, emulator, storage), tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"Reproducing {name} (Completed on Azure ML" in done.stdout
    assert done.stdout.splitlines()[-1] == "none here, and none on the cluster"
    (stand_in,) = (tmp_path / "home/state/reproduce").glob("*/inputs/data")
    assert f"input data: a stand-in folder {stand_in} (it says what it replaces)" in done.stdout
    said = (stand_in / "README.dtrain-tui.txt").read_text()
    assert f"input `data` of Azure ML job {name}" in said
    assert "uri_folder azureml://datastores/workspaceblobstore/paths/data/" in said


def test_a_job_the_workspace_does_not_have_exits_2_in_one_line(tmp_path, emulator) -> None:
    done = dtrain(["reproduce", "no-such-job"], cli_env(tmp_path, emulator), tmp_path)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line == (
        f"dtrain-tui: error: no job named no-such-job in workspace {emulator.workspace} "
        f"(resource group {emulator.resource_group})"
    )
