"""`dtrain-tui submit|jobs|logs|cancel --target azure` in a subprocess, against the emulator.

The CLI signs in with the real DefaultAzureCredential; a stand-in `az` on PATH plays the Azure
CLI (`az account get-access-token` prints the emulator's token), as a signed-in laptop would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.azure.conftest import AZURE_ENV, SCRIPTS
from tests.azure.emulator import TOKEN, WorkspaceEmulator

ROOT = Path(__file__).resolve().parents[2]
FAKE_AZ = f"""#!/bin/sh
# A stand-in for the Azure CLI's token command.
echo '{{"accessToken": "{TOKEN}", "expires_on": {int(time.time()) + 86400}, "tokenType": "Bearer"}}'
"""
LINES_JOB = [
    "--set",
    "framework=pytorch",
    "--set",
    "nodes=1",
    "--set",
    "gpus_per_node=2",
    "--set",
    "sku=",
    "--set",
    f"code={SCRIPTS}",
    "--set",
    "script=lines.py",
    "--set",
    "args=--lines 40 --every 0.01",
    "--set",
    "display_name=cli",
    "--set",
    "stacks=0",  # no helpers' folder to upload: see tests/azure/test_jobs_end_to_end.lines_job
]


def cli_env(tmp_path: Path, em: WorkspaceEmulator | None, signed_in: bool = True) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    if signed_in:
        (bin_dir / "az").write_text(FAKE_AZ)
        (bin_dir / "az").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in AZURE_ENV}
    env["PATH"] = f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin"
    env["PYTHONPATH"] = str(ROOT)
    env["DTRAIN_TUI_HOME"] = str(tmp_path / "home")
    if em is not None:
        env |= {
            "AZURE_SUBSCRIPTION_ID": em.subscription,
            "AZURE_RESOURCE_GROUP": em.resource_group,
            "AZUREML_WORKSPACE_NAME": em.workspace,
        }
    return env


def dtrain(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 60):
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_no_credentials_exit_2_with_one_line_before_any_request(tmp_path, emulator) -> None:
    # How fast is a figure for tests/benchmarks/bench_stops.py; here, one line and no request.
    env = cli_env(tmp_path, emulator, signed_in=False)
    done = dtrain(["submit", "--target", "azure", "--preset", "pytorch-ddp"], env, tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "dtrain-tui: error: not signed in to Azure: run `az login` (or `azd auth login`), or set "
        "AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET for a service principal"
    ]
    assert not emulator.requests


def test_no_workspace_exit_2_says_how_to_configure_one(tmp_path) -> None:
    done = dtrain(["jobs", "--target", "azure"], cli_env(tmp_path, None), tmp_path)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(
        "dtrain-tui: error: no Azure ML workspace configured: pass --subscription"
    )


@pytest.mark.slow
def test_submit_wait_jobs_logs_and_cancel(tmp_path, emulator) -> None:
    emulator.run_jobs = True
    env = cli_env(tmp_path, emulator)
    done = dtrain(["submit", "--target", "azure", *LINES_JOB, "--wait"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    name, studio, *log = done.stdout.splitlines()
    assert studio == f"studio: {emulator.studio_url(name)}"
    assert log[0] == "rank 0 started with WORLD_SIZE=2"
    assert log[1:] == [f"rank 0 line {i}" for i in range(40)] + ["rank 0 done"]
    assert f"job {name}: Completed" in done.stderr

    listed = dtrain(["jobs", "--target", "azure"], env, tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[1].split()[:2] == [name, "Completed"]

    logs = dtrain(["logs", name, "--rank", "1", "--target", "azure"], env, tmp_path)
    assert logs.returncode == 0, logs.stderr
    assert logs.stdout.splitlines()[-1] == "rank 1 done"

    again = dtrain(["cancel", name, "--target", "azure"], env, tmp_path)
    assert again.stdout.strip() == f"{name} had already ended: Completed"


@pytest.mark.slow
def test_cancel_a_running_job_from_the_cli(tmp_path, emulator) -> None:
    emulator.run_jobs = True
    env = cli_env(tmp_path, emulator)
    job = [*LINES_JOB, "--set", "args=--lines 100000 --every 0.05"]
    done = dtrain(["submit", "--target", "azure", *job], env, tmp_path)
    assert done.returncode == 0, done.stderr
    name = done.stdout.splitlines()[0]
    assert done.stdout.splitlines()[2] == (
        f"logs: dtrain-tui logs {name} --target azure · "
        f"stop: dtrain-tui cancel {name} --target azure"
    )
    stopped = dtrain(["cancel", name, "--target", "azure"], env, tmp_path)
    assert stopped.returncode == 0, stopped.stderr
    assert stopped.stdout.strip() == f"{name}: Canceled"


@pytest.mark.slow
def test_doctor_reads_the_services_error_of_a_job_without_logs(tmp_path, emulator, backend):
    """A job the service failed before any log was written (recorded `ServiceError`): the
    doctor reads the run's own error, code and message, instead of refusing for lack of logs."""
    from tests.azure.test_jobs_end_to_end import lines_job
    from tests.azure.test_recorded import recorded

    job = backend.submit(lines_job(1))
    emulator.fail_with(job.name, recorded("run_error_service.json"))
    env = cli_env(tmp_path, emulator)
    done = dtrain(["doctor", job.name, "--target", "azure", "--json"], env, tmp_path)
    assert done.returncode == 1, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["verdict"], answer["cause"]) == ("failed", "azureml_system_error")
    assert '"code": "ServiceError"' in answer["lines"][0]["text"]
