"""dtrain-tui's in-job helpers carried to Azure ML: their folder is a job input, the command's
first words put it first on PYTHONPATH (the image's own still follows), and a job file that does
not carry them runs, and exports, as it was written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import yaml

from tui.core.spec import JobSpec
from tui.planning.export import job_dict, to_yaml
from tui.planning.job_import import spec_from_job
from tui.planning.plan import AZUREML, plan
from tui.planning.stacks_env import EXPORT, HELPER, INPUT, REF

SPEC = JobSpec(nodes=2, gpus_per_node=2, sku=None, script="probe.py", env={"NCCL_DEBUG": "INFO"})


def test_an_azure_plan_carries_the_helpers_as_an_input_the_command_puts_on_the_path():
    p = plan(SPEC, AZUREML)
    job = job_dict(p)
    assert job["inputs"][INPUT] == {
        "type": "uri_folder",
        "path": str(HELPER.parent),
        "mode": "download",
    }
    assert job["command"] == EXPORT + "python probe.py"
    assert all(n.command.startswith(EXPORT) for n in p.nodes)
    assert job["environment_variables"] == {
        "NCCL_DEBUG": "INFO",
        "DTRAIN_STACKS": "10",
        "DTRAIN_GPU_SAMPLE": "30",
    }
    # The job's PYTHONPATH is left to the node (an environment variable would replace the image's)
    assert "PYTHONPATH" not in job["environment_variables"]
    rank = {v.name: v for v in p.ranks[3].env}
    assert rank["PYTHONPATH"].value.startswith("${{inputs.dtrain_tui}}")
    assert rank["DTRAIN_STACKS"].origin.value == "dtrain-tui"
    assert any("job input `dtrain_tui`" in e for e in p.explanations)


def test_with_stacks_0_an_azure_job_carries_nothing_unless_its_env_asks_for_the_gpu_sampler():
    off = job_dict(plan(SPEC.with_changes(stacks=0), AZUREML))
    assert off["command"] == "python probe.py" and "inputs" not in off
    assert off["environment_variables"] == {"NCCL_DEBUG": "INFO"}
    gpus = SPEC.with_changes(stacks=0, env={"DTRAIN_GPU_SAMPLE": "10"})
    alone = job_dict(plan(gpus, AZUREML))
    assert alone["command"].startswith(EXPORT) and INPUT in alone["inputs"]
    assert alone["environment_variables"] == {"DTRAIN_GPU_SAMPLE": "10"}


PROBE = textwrap.dedent(
    """
    import os, signal, sys
    os.kill(os.getpid(), signal.SIGUSR1)  # ends the process unless the dumper caught it
    print("alive after SIGUSR1", flush=True)
    print("path", os.environ["PYTHONPATH"], flush=True)
    """
)


def test_bash_runs_the_command_as_azure_ml_would_and_the_rank_is_armed(tmp_path):
    """The input downloaded where Azure ML puts it, `${{inputs.dtrain_tui}}` filled in, an image
    with a PYTHONPATH and a sitecustomize of its own: the rank's dumper is armed, the image's
    folder is still on the path and its sitecustomize still runs."""
    p = plan(SPEC, AZUREML)
    downloaded = tmp_path / "inputs" / INPUT
    shutil.copytree(HELPER.parent, downloaded)
    image = tmp_path / "image"
    image.mkdir()
    (image / "sitecustomize.py").write_text("print('image sitecustomize ran', flush=True)\n")
    code = tmp_path / "code"
    code.mkdir()
    (code / "probe.py").write_text(PROBE)
    node = p.nodes[1]
    env = {v.name: v.value for v in node.env if v.name != "PYTHONPATH"}
    env |= p.env_vars | {"PATH": os.environ["PATH"], "PYTHONPATH": str(image)}
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    command = node.command.replace(REF, str(downloaded))
    out = subprocess.run(
        ["bash", "-c", command], cwd=code, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "image sitecustomize ran" in out.stdout
    assert "alive after SIGUSR1" in out.stdout
    assert f"path {downloaded}:{image}" in out.stdout
    assert "Current thread" in out.stderr or "Thread 0x" in out.stderr  # the stack it printed


def test_a_file_dtrain_tui_wrote_imports_back_to_its_stacks_and_exports_the_same(tmp_path):
    made = plan(SPEC.with_changes(stacks=5, code=str(tmp_path)), AZUREML)
    written = to_yaml(made, tmp_path)
    back = spec_from_job(yaml.safe_load(written), tmp_path)
    assert back.stacks == 5
    assert back.env == {"NCCL_DEBUG": "INFO"}
    assert INPUT not in (back.passthrough.get("inputs") or {})
    assert to_yaml(plan(back, AZUREML), tmp_path).split("\n", 1)[1] == written.split("\n", 1)[1]


def test_a_file_without_the_helpers_imports_with_none_and_exports_as_written(tmp_path):
    job = {
        "command": "python train.py",
        "environment": "azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest",
        "compute": "azureml:gpu",
        "distribution": {"type": "pytorch", "process_count_per_instance": 4},
        "resources": {"instance_count": 2},
    }
    spec = spec_from_job(job, tmp_path)
    assert spec.stacks == 0
    out = job_dict(plan(spec, AZUREML), tmp_path)
    assert out["command"] == "python train.py"
    assert "inputs" not in out and "environment_variables" not in out
