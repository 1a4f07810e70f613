"""The doctor on real failure output users pasted in public issue threads (`cases/`, with the
label file naming each thread): the cause right in >= 90 % of cases of every label, the culprit
rank right in >= 90 % of the cases whose thread names it, and no diagnosis on a healthy log."""

from __future__ import annotations

import pytest

from tests.doctor.corpus import cases, evaluate, render, run
from tui.logs.causes import CAUSES


def test_the_corpus_is_large_and_covers_every_failure_label():
    labelled = cases()
    failures = [c for c in labelled if c.cause != "none"]
    assert len(failures) >= 40
    assert {c.cause for c in labelled} >= set(CAUSES) - {"unknown"}
    assert all(c.source.startswith("https://github.com/") for c in labelled)
    assert all(c.path.exists() for c in labelled)


def test_accuracy_per_label_is_at_least_90_percent():
    table, misses = evaluate()
    print(render(table))  # the closing note's table (pytest -s)
    for label, score in table.items():
        assert score.cause_right >= 0.9 * score.cases, f"{label}: {misses}"
    ranked = sum(s.ranked for s in table.values())
    right = sum(s.rank_right for s in table.values())
    assert ranked and right >= 0.9 * ranked, misses


@pytest.mark.parametrize("case", [c for c in cases() if c.cause == "none"], ids=lambda c: c.name)
def test_healthy_logs_with_scary_lines_get_no_diagnosis(case):
    got = run(case)
    assert (got.cause, got.rank, got.evidence) == ("none", None, None)
