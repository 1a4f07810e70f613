"""A big log's errors found by helper processes, a part each (widgets/log_errors.py), are the
errors the app's thread finds reading it whole: real failure logs from public issue threads
(tests/doctor/cases, its test half's 203) laid end to end between training lines, so tracebacks,
launcher summaries and NCCL errors straddle every place the log is cut into parts."""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import psutil
import pytest
import yaml

import widgets.log_errors as log_errors
import widgets.log_head as log_head
from widgets.log_errors import find_errors, index_and_find_errors
from widgets.log_head import LogHead

CASES = Path(__file__).parents[1] / "doctor" / "cases"


def write_log(path: Path) -> None:
    rng = random.Random(27)
    # the corpus's test half: fixed once split (folds grow the dev half), so the log and where
    # its parts are cut stay the same as the corpus grows
    test_half = yaml.safe_load((CASES / "split.yaml").read_text(encoding="utf-8"))["test"]
    logs = [CASES / f"{name}.log" for name in sorted(test_half)]
    parts = []
    for i in range(800):
        parts.append(logs[i % len(logs)].read_bytes().rstrip(b"\n") + b"\n")
        steps = rng.randrange(0, 40)
        parts.append(
            b"".join(b"step %d loss %.4f lr 3e-4\n" % (k, rng.random()) for k in range(steps))
        )
    path.write_bytes(b"".join(parts))


def errors(found) -> tuple[list[int], list[int]]:
    starts, ends = array("Q"), array("Q")
    found(lambda s, e: (starts.extend(s), ends.extend(e)))
    return list(starts), list(ends)


def both_ways(tmp_path: Path, helpers: int) -> tuple[tuple, tuple, int]:
    """The errors the thread finds reading the log whole, those `index_and_find_errors` finds
    with `helpers` helper processes, and how many lines its index counted."""
    log = tmp_path / "rank0.log"
    write_log(log)
    alone, again = LogHead(log, log.stat().st_size), LogHead(log, log.stat().st_size)
    try:
        truth = errors(lambda deliver: find_errors(alone, deliver, lambda: False))
        got = errors(
            lambda deliver: index_and_find_errors(
                again, again.take, deliver, lambda: False, helpers
            )
        )
        return truth, got, again.count
    finally:
        alone.close()
        again.close()


@pytest.mark.parametrize("helpers", [1, 3, 7])
def test_helpers_find_the_errors_the_thread_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, helpers: int
):
    cuts: list[int] = []  # the line each part starts at
    by_helpers = log_errors._errors_by_helpers

    def recorded(head: LogHead, parts: list[tuple[int, int]], *rest) -> None:
        cuts.extend(number for _, number in parts)
        by_helpers(head, parts, *rest)

    monkeypatch.setattr(log_errors, "_errors_by_helpers", recorded)
    before = {child.pid for child in psutil.Process().children()}
    truth, got, _ = both_ways(tmp_path, helpers)
    assert len(truth[0]) > 300
    assert got == truth and len(cuts) == helpers
    if helpers == 7:  # an error runs across a cut: its part finds it whole, the next not again
        assert any(s < cut < e for s, e in zip(*truth, strict=True) for cut in cuts)
    assert not [c for c in psutil.Process().children() if c.pid not in before]


def test_a_helper_that_fails_leaves_its_part_to_the_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(log_head.sys, "executable", str(tmp_path / "no-python"))
    truth, got, counted = both_ways(tmp_path, 3)
    assert got == truth and counted == (tmp_path / "rank0.log").read_bytes().count(b"\n")


def test_a_part_whose_helper_cannot_start_is_found_here_and_the_others_by_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    started = []

    def second_on(argv: list[str], fd: int):
        started.append(argv)
        if len(started) == 1:
            raise OSError("no more processes")
        return log_head.start_helper(argv, fd)

    monkeypatch.setattr(log_errors, "start_helper", second_on)
    truth, got, _ = both_ways(tmp_path, 3)
    assert got == truth and len(started) == 3
