"""Before submitting: the cluster's size, node limit and vCPU quota against the plan."""

from __future__ import annotations

from tests.azure.test_jobs_end_to_end import lines_job
from tui.planning.plan import plan
from tui.planning.presets import get_preset


def test_a_cluster_that_fits_shows_its_size_nodes_and_quota(backend, emulator) -> None:
    check = backend.check_compute(plan(get_preset("pytorch-ddp").spec))
    assert check.ok
    assert check.facts == [
        "cluster gpu-cluster: Standard_ND96asr_v4, 0–4 nodes, dedicated",
        "quota: Standard NDASv4_A100 Family Cluster Dedicated vCPUs: 96 of 480 in use; the job "
        "needs 192",
        "quota: Total Cluster Dedicated Regional vCPUs: 96 of 1000 in use; the job needs 192",
    ]


def test_a_cluster_too_small_for_the_plan_says_each_way(backend, emulator) -> None:
    spec = get_preset("pytorch-ddp").spec.with_changes(compute="small-cluster")
    check = backend.check_compute(plan(spec))
    assert check.facts[0] == "cluster small-cluster: Standard_NC24ads_A100_v4, 0–1 nodes, dedicated"
    assert [w.split(":")[0].split(";")[0] for w in check.warnings] == [
        "cluster small-cluster scales to at most 1 node but the job needs 2",
        "cluster small-cluster runs Standard_NC24ads_A100_v4, not Standard_ND96asr_v4 that the "
        "plan was made for",
        "Standard_NC24ads_A100_v4 has 1 GPU per node but the plan runs 8 processes per node",
        "Standard_NC24ads_A100_v4 has no InfiniBand NCCL can use",
        "not enough quota (Standard NCADSA100v4 Family Cluster Dedicated vCPUs)",
    ]
    assert "24 vCPUs free, the job needs 2 × 24 = 48" in check.warnings[-1]
    assert check.lines()[-1].startswith(
        "warning: not enough quota (Standard NCADSA100v4 Family Cluster Dedicated vCPUs)"
    )


def test_quota_that_does_not_answer_is_a_fact_not_an_error(backend, emulator) -> None:
    emulator.fail_next("GET", "/usages", status=403)
    check = backend.check_compute(plan(get_preset("pytorch-ddp").spec))
    assert check.ok
    assert check.facts[-1].startswith("quota: not available (")


def test_no_usage_for_the_family_is_said_once(backend, emulator) -> None:
    emulator.usages = []
    check = backend.check_compute(plan(get_preset("pytorch-ddp").spec))
    assert check.ok
    quota = [f for f in check.facts if f.startswith("quota:")]
    assert quota == [
        "quota: Azure ML lists no dedicated vCPU usage for standardNDASv4_A100Family in this "
        "region; quota not checked"
    ]


def test_serverless_compute_has_nothing_to_check(backend, emulator) -> None:
    check = backend.check_compute(lines_job(1, compute=None))
    assert check.facts == ["compute: serverless (Azure ML picks the nodes; nothing to check)"]


def test_preflight_lists_workspace_sign_in_and_cluster(backend, emulator) -> None:
    lines = list(backend.preflight(plan(get_preset("pytorch-ddp").spec)))
    assert (
        lines[0] == "Workspace ws-test (resource group rg-test, subscription "
        "00000000-0000-0000-0000-000000000001) from test"
    )
    assert lines[1] == "Signed in to Azure."
    assert lines[2].startswith("cluster gpu-cluster: Standard_ND96asr_v4")
