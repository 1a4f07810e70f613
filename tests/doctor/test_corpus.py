"""The doctor on real output users pasted in public issue threads (`cases/`, each with its thread,
cause, culprit rank and a line of why), split once at random into a dev half (read while writing
rules) and a test half (only its score is looked at; see `cases/split.yaml`)."""

from __future__ import annotations

import pytest

from tests.doctor.corpus import HEALTHY, cases, evaluate, render, run
from tui.logs.causes import CAUSES

# A bit under what the doctor reaches, so a regression shows. Healthy needs proof (issue 36): a
# healthy run whose log shows none (an excerpt of warnings that stops mid-run, as most pasted
# "harmless warning" threads are) is "not proven", never "healthy"; no failure is called healthy
# on either half. The test half still calls one healthy run failed (its log unread).
THRESHOLDS = {
    "dev": {
        "cause": 0.9, "rank": 0.95, "healthy_proven": 0.5, "failures_not_proven": 0.05,
        "healthy_called_failed": 0,
    },
    "test": {
        "cause": 0.72, "rank": 0.7, "healthy_proven": 0.15, "failures_not_proven": 0.05,
        "healthy_called_failed": 1,
    },
}  # fmt: skip


def test_the_corpus_is_large_varied_and_split_once():
    labelled = cases()
    repos = {"/".join(c.source.split("/")[3:5]) for c in labelled}
    assert len(labelled) >= 150 and len(repos) >= 40
    assert sum(c.cause == HEALTHY for c in labelled) >= 10
    assert {c.cause for c in labelled} <= set(CAUSES)
    assert all(c.source.startswith("https://") for c in labelled)
    assert all(c.path.exists() for c in labelled)
    assert {c.split for c in labelled} == {"dev", "test"}


@pytest.mark.parametrize("half", ["dev", "test"])
def test_the_doctor_is_right_on_each_half(half):
    report = evaluate(half)
    figures = report.figures()
    print(render(report) if half == "dev" else figures)  # the closing note's figures
    total, limits = report.total, THRESHOLDS[half]
    assert total.cause_right >= limits["cause"] * total.cases, figures
    assert total.rank_right >= limits["rank"] * total.ranked, figures
    # no misses in a message: the test half's would steer the rules
    assert report.failed_called_healthy == 0, figures
    assert report.healthy_called_failed <= limits["healthy_called_failed"], figures
    assert report.healthy_right >= limits["healthy_proven"] * report.healthy, figures
    failures = total.cases - report.healthy
    assert report.failures_not_proven <= limits["failures_not_proven"] * failures, figures


@pytest.mark.parametrize(
    "case", [c for c in cases("dev") if c.cause == HEALTHY], ids=lambda c: c.name
)
def test_healthy_dev_logs_with_scary_lines_are_never_called_failed(case):
    got = run(case)
    assert not got.failed and (got.rank, got.evidence) == (None, None)
    # healthy only with its proof quoted; else "not proven" (the excerpt shows no end)
    assert got.proof if got.healthy else got.verdict == "not_proven"


def test_healthy_dev_logs_that_show_their_end_are_proven_healthy():
    proven = {c.name: run(c).proof for c in cases("dev") if c.cause == HEALTHY}
    assert "exit code 0" in proven["healthy_dreambooth_168_deprecation"]
    assert "994/994" in proven["healthy_vidur_49_errno97"]
    assert "before program exit" in proven["healthy_megatron_1541_destroy"]
    assert proven["healthy_accelerate_2183_warnings"] is None  # stops at tokenizer set-up
    # a launcher's, a platform's, a test harness's end word; the last epoch by its own count
    assert "worker.status.SUCCEEDED" in proven["none_bevdet_21"]
    assert "from Running to Completed" in proven["none_capstone_duclinh_hyperdrive"]
    assert "--- PASS:" in proven["none_aws_k8s_tester_566"]
    assert "EPOCH 199/199" in proven["none_open3d_ml_499"]
    assert proven["none_dcgan_lsgan_tf2_8"] is None  # epoch 99 of an unstated total
