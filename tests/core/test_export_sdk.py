"""Exports checked by the real azure-ai-ml: the YAML loads, the Python builds the same job."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest
import yaml
from azure.ai.ml import load_job

from tui.core.spec import JobSpec
from tui.planning.export import job_dict, to_json, to_yaml
from tui.planning.plan import plan
from tui.planning.sdk import to_python
from tui.planning.stacks_env import EXPORT, skip_names

from .conftest import ALLOWED

warnings.filterwarnings("ignore", message=".*experimental.*")


def rest(job) -> dict:
    """The wire form the SDK would PUT, minus `azureml:` prefixes (YAML loading strips them)."""
    data = job._to_job()._to_rest_object().as_dict()["properties"]

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()}
        if isinstance(v, str):
            return v.removeprefix("azureml:")
        return v

    return strip(data)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    return tmp_path


@pytest.mark.parametrize("spec", [s for _, s in ALLOWED], ids=[n for n, _ in ALLOWED])
def test_exported_yaml_loads_and_carries_the_plan(spec, workdir):
    p = plan(spec.with_changes(code="src"))
    path = workdir / "jobs" / "job.yml"
    path.parent.mkdir()
    path.write_text(to_yaml(p, path.parent))
    wire = rest(load_job(path))
    dist = p.distribution.as_yaml()
    if dist["type"] == "tensorflow":
        assert wire["distribution"] == {
            "distributionType": "TensorFlow",
            "workerCount": dist["worker_count"],
            "parameterServerCount": dist["parameter_server_count"],
        }
    else:
        assert wire["distribution"] == {
            "distributionType": {"pytorch": "PyTorch", "mpi": "Mpi"}[dist["type"]],
            "processCountPerInstance": dist["process_count_per_instance"],
        }
    assert wire["resources"]["instanceCount"] == p.instance_count
    assert wire["command"] == p.command
    assert wire.get("environmentVariables", {}) == spec.env | {"DTRAIN_STACKS": "10"} | (
        {"DTRAIN_GPU_SAMPLE": "30"} | ({"DTRAIN_STACKS_SKIP": s} if (s := skip_names(p)) else {})
    )
    # dtrain-tui's in-job helpers travel as a job input the command puts first on PYTHONPATH
    assert wire["inputs"]["dtrain_tui"]["jobInputType"] == "uri_folder"
    assert wire["inputs"]["dtrain_tui"]["mode"] == "Download"
    assert wire["command"].startswith('export PYTHONPATH="${{inputs.dtrain_tui}}${PYTHONPATH:+')
    # `code:` is written relative to the YAML file, as az ml resolves it.
    assert yaml.safe_load(path.read_text())["code"] == "../src"


@pytest.mark.parametrize("spec", [s for _, s in ALLOWED], ids=[n for n, _ in ALLOWED])
def test_exported_python_builds_the_same_job_as_the_yaml(spec, workdir):
    p = plan(spec.with_changes(code="src"))
    (workdir / "job.yml").write_text(to_yaml(p, workdir))
    namespace: dict = {"__name__": "exported"}
    exec(compile(to_python(p, workdir), "job.py", "exec"), namespace)
    assert rest(namespace["job"]) == rest(load_job(workdir / "job.yml"))


FULL = JobSpec(
    framework="pytorch",
    nodes=2,
    gpus_per_node=8,
    code="src",
    args=("--name", "my run", "--filter", "a;b $HOME"),
    env={"NCCL_DEBUG": "INFO", "NCCL_IB_TIMEOUT": "22"},
    experiment="ddp-demo",
    display_name="ddp-2x8",
    passthrough={
        "description": "every field the wizard does not model",
        "inputs": {"epochs": 3, "data": {"type": "uri_folder", "path": "azureml:cifar10:1"}},
        "outputs": {"model_dir": {"type": "uri_folder"}},
        "tags": {"team": "ml"},
        "queue_settings": {"job_tier": "standard", "priority": "medium"},
        "services": {
            "my_tb": {"type": "tensor_board", "log_dir": "outputs/tblogs"},
            "ssh": {"type": "ssh", "ssh_public_keys": "ssh-rsa AAAA test"},
        },
        "identity": {"type": "user_identity"},
        "limits": {"timeout": 7200},
    },
    resources_extra={"docker_args": "--ipc=host"},
)


def test_passthrough_fields_survive_both_exports(workdir):
    p = plan(FULL)
    (workdir / "job.yml").write_text(to_yaml(p, workdir))
    from_yaml = rest(load_job(workdir / "job.yml"))
    namespace: dict = {}
    exec(to_python(p, workdir), namespace)
    assert rest(namespace["job"]) == from_yaml
    assert from_yaml["queueSettings"] == {"jobTier": "Standard", "priority": 2}
    assert from_yaml["limits"]["timeout"] == "PT2H"
    assert from_yaml["services"]["my_tb"]["jobServiceType"] == "TensorBoard"
    assert from_yaml["identity"] == {"identityType": "UserIdentity"}
    assert from_yaml["resources"]["dockerArgs"] == "--ipc=host"
    assert from_yaml["command"] == EXPORT + "python train.py --name 'my run' --filter 'a;b $HOME'"


def test_json_export_holds_every_rank_and_who_sets_each_var():
    data = json.loads(to_json(plan(JobSpec(launch="per_node", nodes=2, gpus_per_node=4))))
    assert len(data["ranks"]) == 8
    r5 = {v["name"]: v for v in data["ranks"][5]["env"]}
    assert r5["RANK"] == {
        "name": "RANK",
        "value": "5",
        "origin": "torchrun",
        "note": "replaces Azure ML's 1",
    }
    assert data["job"]["distribution"] == {"type": "pytorch", "process_count_per_instance": 1}
    assert data["spec"]["launch"] == "per_node"


def test_yaml_keeps_absolute_and_remote_code_paths(tmp_path):
    remote = plan(JobSpec(code="azureml://datastores/code/paths/src"))
    assert job_dict(remote, tmp_path)["code"] == "azureml://datastores/code/paths/src"
    local = plan(JobSpec(code=os.fspath(tmp_path / "src")))
    assert job_dict(local, tmp_path / "out")["code"] == os.path.join("..", "src")
    assert Path(job_dict(local)["code"]) == tmp_path / "src"
