"""Existing job YAMLs open as specs, and export back unchanged where the user changed nothing."""

from __future__ import annotations

import os
import warnings

import pytest
import yaml
from azure.ai.ml import load_job
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tests.core.invariants import check_plan
from tui.planning.export import job_dict, to_yaml
from tui.planning.job_import import ImportProblem, load_job_file, spec_from_job
from tui.planning.plan import plan

from .test_export_sdk import rest

warnings.filterwarnings("ignore", message=".*experimental.*")

# More examples for a deeper search: DTRAIN_FUZZ_EXAMPLES=20000 .venv/bin/pytest tests/core
FUZZ_EXAMPLES = int(os.environ.get("DTRAIN_FUZZ_EXAMPLES", "300"))

# In the style of Azure/azureml-examples cli/jobs/single-step/*.
EXAMPLES = {
    "pytorch-inputs": """
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
code: src
command: >-
  python main.py
  --data-dir ${{inputs.cifar}}
  --epochs ${{inputs.epochs}}
  --model-dir outputs
inputs:
  epochs: 1
  cifar:
    type: uri_folder
    path: azureml:cifar-10-example@latest
environment: azureml:AzureML-acpt-pytorch-2.2-cuda12.1@latest
compute: azureml:gpu-cluster
distribution:
  type: pytorch
  process_count_per_instance: 1
resources:
  instance_count: 2
display_name: pytorch-cifar-distributed-example
experiment_name: pytorch-cifar-distributed-example
description: Train a basic CNN with PyTorch on CIFAR-10, distributed via PyTorch.
""",
    "tensorflow-workers": """
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
code: src
command: >-
  python train.py
  --epochs ${{inputs.epochs}}
  --model-dir outputs/keras-model
inputs:
  epochs: 1
environment: azureml:AzureML-tensorflow-2.16-cuda12@latest
compute: azureml:gpu-cluster
resources:
  instance_count: 2
distribution:
  type: tensorflow
  worker_count: 2
display_name: tensorflow-mnist-distributed-example
experiment_name: tensorflow-mnist-distributed-example
""",
    "mpi-env-vars": """
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
code: src
command: python train.py --epochs ${{inputs.epochs}}
inputs:
  epochs: 1
environment: azureml:AzureML-tensorflow-2.16-cuda12@latest
environment_variables:
  HOROVOD_FUSION_THRESHOLD: "134217728"
  NCCL_DEBUG: INFO
compute: azureml:gpu-cluster
resources:
  instance_count: 2
distribution:
  type: mpi
  process_count_per_instance: 2
display_name: tensorflow-mnist-distributed-horovod-example
experiment_name: tensorflow-mnist-distributed-horovod-example
""",
    "pytorch-shm-services": """
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
code: src
command: python train.py --epochs 10 --lr 0.01
environment: azureml:AzureML-acpt-pytorch-2.2-cuda12.1@latest
compute: azureml:gpu-cluster
distribution:
  type: pytorch
  process_count_per_instance: 4
resources:
  instance_count: 2
  shm_size: 32g
services:
  my_jupyterlab:
    type: jupyter_lab
  my_tb:
    type: tensor_board
    log_dir: outputs/tblogs
  my_vscode:
    type: vs_code
tags:
  team: vision
identity:
  type: user_identity
limits:
  timeout: 7200
""",
    "torchrun-per-node": """
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
code: src
command: >-
  torchrun --nnodes 2 --nproc_per_node 8 --node_rank $NODE_RANK
  --master_addr $MASTER_ADDR --master_port $MASTER_PORT train.py --epochs 3
environment: azureml:AzureML-acpt-pytorch-2.2-cuda12.1@latest
compute: azureml:gpu-cluster
distribution:
  type: pytorch
  process_count_per_instance: 1
resources:
  instance_count: 2
""",
}


@pytest.fixture
def jobdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    return tmp_path


@pytest.mark.parametrize("name", EXAMPLES)
def test_import_then_export_changes_nothing(name, jobdir):
    original = jobdir / "job.yml"
    original.write_text(EXAMPLES[name])
    spec = load_job_file(original)
    again = jobdir / "again.yml"
    again.write_text(to_yaml(plan(spec), jobdir))
    assert yaml.safe_load(again.read_text()) == yaml.safe_load(original.read_text())
    assert rest(load_job(again)) == rest(load_job(original))


def test_import_infers_the_framework_and_launch_mode(jobdir):
    cases = {
        "pytorch-inputs": ("pytorch", "per_process", 2, 1),
        "tensorflow-workers": ("tensorflow", "per_node", 2, 1),
        "mpi-env-vars": ("horovod", "per_process", 2, 2),
        "pytorch-shm-services": ("pytorch", "per_process", 2, 4),
        "torchrun-per-node": ("pytorch", "per_node", 2, 8),
    }
    for name, expected in cases.items():
        spec = spec_from_job(yaml.safe_load(EXAMPLES[name]), jobdir)
        assert (spec.framework, spec.launch, spec.nodes, spec.gpus_per_node) == expected, name


def test_a_command_dtrain_tui_could_have_written_opens_as_script_and_args(jobdir):
    data = yaml.safe_load(EXAMPLES["pytorch-shm-services"])
    spec = spec_from_job(data, jobdir)
    assert spec.command is None
    assert (spec.script, spec.args) == ("train.py", ("--epochs", "10", "--lr", "0.01"))
    per_node = spec_from_job(yaml.safe_load(EXAMPLES["torchrun-per-node"]), jobdir)
    assert (per_node.command, per_node.script, per_node.args) == (
        None,
        "train.py",
        ("--epochs", "3"),
    )
    # Azure ML input bindings stay verbatim: re-quoting them would change the job.
    assert spec_from_job(yaml.safe_load(EXAMPLES["pytorch-inputs"]), jobdir).command


def test_framework_can_be_overridden(jobdir):
    spec = spec_from_job(yaml.safe_load(EXAMPLES["mpi-env-vars"]), jobdir, framework="deepspeed")
    assert (spec.framework, spec.deepspeed_via) == ("deepspeed", "mpi")


def test_editing_an_imported_job_changes_only_what_was_edited(jobdir):
    spec = spec_from_job(yaml.safe_load(EXAMPLES["pytorch-shm-services"]), jobdir)
    before = job_dict(plan(spec), jobdir)
    after = job_dict(plan(spec.with_changes(nodes=4)), jobdir)
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"resources"}
    assert after["resources"] == {"instance_count": 4, "shm_size": "32g"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("type: pipeline\njobs: {}", "type: 'pipeline' jobs are not supported"),
        ("type: command\nenvironment: x", "command: missing"),
        (
            "command: python a.py\nresources: {instance_count: two}",
            "resources.instance_count: expected a whole number",
        ),
        (
            "command: python a.py\ncompute: {target: azureml:cpu-cluster}",
            "old preview job schema.*compute: {target: X} is now compute: X",
        ),
        (
            "command: python a.py\ncode: {local_path: src}",
            "old preview job schema.*code: {local_path: X} is now code: X",
        ),
        ("- just\n- a list", "not a YAML mapping"),
        ("command: python a.py\nresources: '0'", "resources: expected a mapping"),
    ],
)
def test_broken_job_files_give_one_clear_line(data, message, jobdir):
    with pytest.raises(
        ImportProblem, match=message.replace("(", r"\(").replace(")", r"\)").replace("{", r"\{")
    ):
        spec_from_job(yaml.safe_load(data), jobdir)


def test_unreadable_and_invalid_yaml_files_name_the_file(jobdir):
    with pytest.raises(ImportProblem, match="cannot read it"):
        load_job_file(jobdir / "missing.yml")
    bad = jobdir / "bad.yml"
    bad.write_text("command: [unclosed\n")
    with pytest.raises(ImportProblem, match=r"bad.yml: not valid YAML at line \d"):
        load_job_file(bad)


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.text(max_size=12),
    st.sampled_from(["pytorch", "mpi", "tensorflow", "ray", "16g", "train.py"]),
)
values = st.recursive(
    scalars, lambda inner: st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6
)
job_keys = st.sampled_from(
    [
        "type",
        "command",
        "distribution",
        "resources",
        "code",
        "environment",
        "compute",
        "environment_variables",
        "inputs",
        "experiment_name",
    ]
)
dist = st.fixed_dictionaries(
    {"type": st.sampled_from(["pytorch", "mpi", "tensorflow", "x"])},
    optional={
        "process_count_per_instance": scalars,
        "worker_count": scalars,
        "parameter_server_count": scalars,
    },
)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(
    st.dictionaries(job_keys, values, max_size=6),
    st.none() | dist,
    st.none() | st.dictionaries(st.sampled_from(["instance_count", "shm_size"]), scalars),
)
def test_any_job_yaml_gives_a_plan_or_a_clear_message(data, distribution, resources):
    data = dict(data)
    if distribution is not None:
        data["distribution"] = distribution
    if resources is not None:
        data["resources"] = resources
    try:
        spec = spec_from_job(data, ".")
    except (ImportProblem, ValidationError):
        return
    check_plan(plan(spec))
