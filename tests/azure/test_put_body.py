"""The job azure-ai-ml sends is the plan: for every shipped preset, the PUT body the workspace
emulator receives carries the plan's distribution, node count, command, environment variables,
compute, environment and resources, in Azure ML's wire format (azureml.md §1.4)."""

from __future__ import annotations

import pytest

from tests.azure.emulator import WorkspaceEmulator
from tui.backends.azureml import AzureMLBackend
from tui.planning.plan import LaunchPlan, plan
from tui.planning.presets import load_presets

PRESETS = sorted(p.name for p in load_presets()[0] if p.source == "shipped")
INLINE_IMAGE = {"cluster-check"}
"""Presets whose environment is an inline image: azure-ai-ml registers it first (a PUT of
`environments/CliV2AnonymousEnvironment/versions/<hash>`), which the emulator does not model."""
_WIRE_TYPES = {"pytorch": "PyTorch", "mpi": "Mpi", "tensorflow": "TensorFlow"}


def wire(p: LaunchPlan, ws_id: str) -> dict:
    """What the plan says the PUT body's properties must hold, written from the plan alone."""
    d = p.distribution
    if d.type == "tensorflow":
        distribution = {
            "distributionType": "TensorFlow",
            "workerCount": d.worker_count,
            "parameterServerCount": d.parameter_server_count,
        }
    else:
        distribution = {
            "distributionType": _WIRE_TYPES[d.type],
            "processCountPerInstance": d.process_count_per_instance,
        }
    resources = {"instanceCount": p.instance_count, "properties": {}}
    if p.spec.shm_size:
        resources["shmSize"] = p.spec.shm_size
    return {
        "command": p.command,
        "distribution": distribution,
        "resources": resources,
        "environmentVariables": dict(p.env_vars),
        "computeId": f"{ws_id}/computes/{p.spec.compute}",
        "environmentId": p.environment,
        "experimentName": p.spec.experiment,
        "jobType": "Command",
    }


def test_every_shipped_preset_is_checked():
    assert len(PRESETS) == 9


@pytest.mark.parametrize("name", sorted(set(PRESETS) - INLINE_IMAGE))
def test_the_put_body_is_the_plan(
    name: str, backend: AzureMLBackend, emulator: WorkspaceEmulator, tmp_path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)  # presets without code of their own send this folder
    (tmp_path / "train.py").write_text("print('train')\n")
    preset = next(p for p in load_presets()[0] if p.name == name)
    spec = preset.spec.with_changes(
        env={**preset.spec.env, "NCCL_DEBUG": "INFO", "X": "a b"},
        stacks=0,  # no helpers' folder to upload: see tests/azure/test_jobs_end_to_end.lines_job
    )
    p = plan(spec)
    handle = backend.submit(p)

    (put,) = emulator.puts()
    assert put.path.endswith(f"/jobs/{handle.name}")
    props = put.body["properties"]
    expected = wire(p, emulator.ws_id)
    assert {k: props.get(k) for k in expected} == expected
    assert props["codeId"].startswith(f"{emulator.ws_id}/codes/")
    if spec.display_name:
        assert props["displayName"] == spec.display_name
    assert not emulator.unknown
