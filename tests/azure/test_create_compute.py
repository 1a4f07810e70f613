"""A missing cluster is created for the job: the guide's AmlCompute, shown, then created
through the real azure-ai-ml long-running operation against the workspace emulator."""

from __future__ import annotations

import pytest

from tests.azure.test_cli_azure import LINES_JOB, cli_env, dtrain
from tests.ui.waits import on_screen
from tui.backends.base import BackendError, ComputeNotFound
from tui.planning.plan import plan
from tui.planning.presets import get_preset
from tui.planning.sdk import cluster_code, sdk_cluster

JOB = [*LINES_JOB, "--set", "sku=Standard_ND96asr_v4", "--set", "nodes=2"]
JOB += ["--set", "gpus_per_node=1", "--set", "compute=new-a100"]


def _puts(emulator) -> list:
    return [r for r in emulator.requests if r.method == "PUT" and "/computes/" in r.path]


def test_the_cli_creates_a_missing_cluster_sized_for_the_job_then_submits(tmp_path, emulator):
    env = cli_env(tmp_path, emulator)
    done = dtrain(["submit", "--target", "azure", *JOB, "--create-compute"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "compute cluster new-a100 does not exist; creating it" in done.stderr
    assert "InProgress" in done.stderr  # the operation's state while it runs
    assert "no node runs, and none is billed" in done.stderr
    assert "created compute cluster new-a100: Standard_ND96asr_v4, 0–2 nodes, dedicated" in (
        done.stdout
    )
    (put,) = _puts(emulator)
    props = put.body["properties"]["properties"]
    assert props["vmSize"] == "Standard_ND96asr_v4"
    assert props["vmPriority"] == "Dedicated"
    assert props["scaleSettings"]["minNodeCount"] == 0
    assert props["scaleSettings"]["maxNodeCount"] == 2
    assert props["scaleSettings"]["nodeIdleTimeBeforeScaleDown"] == "PT30M"
    assert emulator.computes["new-a100"]["properties"]["provisioningState"] == "Succeeded"
    assert len(emulator.runs) == 1  # and the job was submitted to it


def test_without_the_flag_a_missing_cluster_is_one_line_that_names_the_flag(tmp_path, emulator):
    done = dtrain(["submit", "--target", "azure", *JOB], cli_env(tmp_path, emulator), tmp_path)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "compute cluster new-a100 not found" in line and "--create-compute" in line
    assert not _puts(emulator) and not emulator.runs


def test_a_quota_failure_is_one_line_with_the_fix_and_names_the_cluster_left_behind(
    tmp_path, emulator
):
    emulator.creations.quota_limit = 24  # ND96asr_v4 needs 96 vCPUs a node
    env = cli_env(tmp_path, emulator)
    done = dtrain(["submit", "--target", "azure", *JOB, "--create-compute"], env, tmp_path)
    assert done.returncode == 2
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("dtrain-tui: error: not enough quota for Standard_ND96asr_v4")
    assert "maps to 96 vCPUs" in line  # the service's own words
    assert "request more (portal → Quotas" in line
    assert "left new-a100 in state Failed" in line and "az ml compute delete -n new-a100" in line
    assert "Traceback" not in done.stderr
    assert not emulator.runs


def test_low_priority_and_idle_time_reach_the_cluster(tmp_path, emulator):
    env = cli_env(tmp_path, emulator)
    argv = ["submit", "--target", "azure", *JOB, "--create-compute", "--low-priority"]
    done = dtrain([*argv, "--idle-minutes", "5"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "one lost node stops every rank" in done.stderr
    props = _puts(emulator)[0].body["properties"]["properties"]
    assert props["vmPriority"] == "LowPriority"
    assert props["scaleSettings"]["nodeIdleTimeBeforeScaleDown"] == "PT5M"


def test_the_backend_reports_progress_and_refuses_bad_names_and_sizes_before_creating(
    backend, emulator
):
    p = plan(get_preset("pytorch-ddp").spec)
    with pytest.raises(ComputeNotFound) as missing:
        backend.check_compute(plan(p.spec.with_changes(compute="gpu-new")))
    assert missing.value.name == "gpu-new"

    lines: list[str] = []
    summary = backend.create_compute(sdk_cluster(p, "gpu-new"), lines.append, poll_seconds=0)
    assert summary.startswith("created compute cluster gpu-new")
    assert sum("InProgress" in line for line in lines) >= 1
    assert lines[-1].endswith("Succeeded")

    with pytest.raises(BackendError, match="use 2 to 16 letters"):
        backend.create_compute(sdk_cluster(p, "9-bad_name"), poll_seconds=0)
    other = plan(p.spec.with_changes(sku="Standard_ND96isr_H100_v5"))
    with pytest.raises(BackendError, match="is not offered in the region"):
        backend.create_compute(sdk_cluster(other, "h100s"), poll_seconds=0)
    assert [r.path.rsplit("/", 1)[-1] for r in _puts(emulator)] == ["gpu-new"]


def test_the_code_shown_is_the_call_that_runs():
    p = plan(get_preset("pytorch-ddp").spec)
    code = cluster_code(sdk_cluster(p, "gpu-a100"))
    namespace: dict = {}
    exec(code.split("ml_client =")[0], namespace)  # builds the real AmlCompute, no network
    cluster = namespace["cluster"]
    assert (cluster.size, cluster.min_instances, cluster.max_instances) == (
        p.spec.sku,
        0,
        p.instance_count,
    )


async def test_the_submit_step_offers_to_create_a_missing_cluster_and_checks_it_after(
    backend, emulator, tmp_path, monkeypatch
):
    from textual.widgets import Input, Static

    from screens.create_compute import CreateComputeScreen
    from screens.submit import SubmitScreen
    from tests.azure.test_ui_azure import make_app, text_of, until

    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Input, "cursor_blink", False)
    app = make_app(backend)
    app.spec = app.spec.with_changes(compute="new-a100", sku="Standard_ND96asr_v4")
    async with app.run_test(size=(120, 40)) as pilot:
        app.action_submit()
        await until(
            pilot,
            lambda: isinstance(app.screen, SubmitScreen) and app.screen.query("#to-azureml"),
            "the submit dialog",
        )
        dialog = app.screen
        await pilot.click("#to-azureml")
        offer = dialog.query_one("#create-compute")
        await until(pilot, lambda: offer.display, "the offer to create the cluster")
        assert "new-a100 does not exist" in text_of(dialog, "#azure-check")
        await pilot.click("#create-compute")
        await until(pilot, lambda: on_screen(app, CreateComputeScreen), "the dialog")
        create = app.screen
        await pilot.pause()
        notes = str(create.query_one("#cluster-notes", Static).render())
        assert "0 to 1 nodes: no node runs, and none is billed" in notes
        assert not _puts(emulator)  # nothing is created before Create is pressed
        await pilot.click("#create")
        await until(pilot, lambda: app.screen is dialog, "the cluster to be created", 60)
        await until(pilot, lambda: "cluster new-a100:" in text_of(dialog, "#azure-check"), "check")
        assert "cluster new-a100: Standard_ND96asr_v4, 0–1 nodes" in text_of(dialog, "#azure-check")
        assert not offer.display
    assert len(_puts(emulator)) == 1
