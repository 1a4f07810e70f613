"""The doctor on real output users pasted in public issue threads (`cases/`, each with its thread,
cause, culprit rank and a line of why), split once at random into a dev half (read while writing
rules) and a test half (only its score is looked at; see `cases/split.yaml`)."""

from __future__ import annotations

import pytest

from tests.doctor.corpus import HEALTHY, cases, evaluate, render, run
from tui.logs.causes import CAUSES

# A bit under what the doctor reaches (cases/scores.md), so a regression shows. The goal is no
# failed run called healthy on either half; the test half still has one (its log unread).
THRESHOLDS = {
    "dev": {"cause": 0.95, "rank": 0.95, "failed_called_healthy": 0},
    "test": {"cause": 0.92, "rank": 0.9, "failed_called_healthy": 1},
}


def test_the_corpus_is_large_varied_and_split_once():
    labelled = cases()
    repos = {"/".join(c.source.split("/")[3:5]) for c in labelled}
    assert len(labelled) >= 150 and len(repos) >= 40
    assert sum(c.cause == HEALTHY for c in labelled) >= 10
    assert {c.cause for c in labelled} <= set(CAUSES)
    assert all(c.source.startswith("https://github.com/") for c in labelled)
    assert all(c.path.exists() for c in labelled)
    assert {c.split for c in labelled} == {"dev", "test"}


@pytest.mark.parametrize("half", ["dev", "test"])
def test_the_doctor_is_right_on_each_half(half):
    report = evaluate(half)
    figures = report.figures()
    print(render(report) if half == "dev" else figures)  # the closing note's figures
    total = report.total
    assert total.cause_right >= THRESHOLDS[half]["cause"] * total.cases, figures
    assert total.rank_right >= THRESHOLDS[half]["rank"] * total.ranked, figures
    # no misses in a message: the test half's would steer the rules
    assert report.healthy_right == report.healthy, figures
    assert report.failed_called_healthy <= THRESHOLDS[half]["failed_called_healthy"], figures


@pytest.mark.parametrize(
    "case", [c for c in cases("dev") if c.cause == HEALTHY], ids=lambda c: c.name
)
def test_healthy_dev_logs_with_scary_lines_get_no_diagnosis(case):
    got = run(case)
    assert (got.cause, got.rank, got.evidence) == (HEALTHY, None, None)
