"""Where a job's time went (tui/logs/timeline.py): phases that add up to the job's time, the
first failure placed only by a line that says its zone, and costs only where they are known."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tui.logs.timeline import describe, failed_at, phases, when

T0 = datetime(2026, 11, 27, 15, 0, tzinfo=timezone.utc)


def _at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_failed_job_splits_at_its_first_failure_and_the_phases_add_up():
    timeline = phases(T0, _at(840), _at(9840), _at(99999), _at(7740), "rank 3")
    assert [p.name for p in timeline] == [
        "waiting for nodes and the environment",
        "running",
        "after rank 3 failed, until the job ended",
    ]
    assert [p.seconds for p in timeline] == [840, 6900, 2100]
    assert sum(p.seconds for p in timeline) == (_at(9840) - T0).total_seconds()
    lines = describe(timeline, 54.39)
    assert lines[0] == (
        "waiting for nodes and the environment 14:00 · billed from the nodes' allocation, "
        "which the service did not say"
    )
    assert lines[1] == "running 1:55:00 · ≈ $104.25"
    assert lines[2] == "after rank 3 failed, until the job ended 35:00 · ≈ $31.73"
    assert lines[3] == "in all 2:44:00 · ≈ $135.98 and the wait's share"


def test_a_running_job_ends_now_and_a_queued_one_only_waits():
    running = phases(T0, _at(60), None, _at(660))
    assert [(p.name, p.seconds) for p in running][-1] == ("running", 600)
    queued = phases(T0, None, None, _at(300))
    assert [(p.name, p.seconds, p.billed) for p in queued] == [
        ("waiting for nodes and the environment", 300, None)
    ]
    assert describe(queued, None) == ["waiting for nodes and the environment 5:00", "in all 5:00"]


def test_a_failure_outside_the_run_is_not_used():
    timeline = phases(T0, _at(60), _at(120), _at(500), failed_at=_at(130))
    assert [p.name for p in timeline] == ["waiting for nodes and the environment", "running"]


def test_only_a_zoned_line_that_says_the_rank_ended_places_the_failure():
    lines = [
        "2026-11-27T15:14:53.765+00:00 started rank 0: pid 9921: python train.py",
        "2026-11-27 15:14:54 rank 1 exited with code 3",  # no zone: not placed
        "2026-11-27T15:14:55.100Z rank 1 (pid 9924) exited with code 3",
        "2026-11-27T15:14:54.925+00:00 rank 0 (pid 9921) exited with code 1",
        "2026-11-27T15:14:56+00:00 rank 12 failed",  # another rank
    ]
    assert failed_at(lines, 1) == datetime(2026, 11, 27, 15, 14, 55, 100000, tzinfo=timezone.utc)
    assert failed_at(lines, 0) == datetime(2026, 11, 27, 15, 14, 54, 925000, tzinfo=timezone.utc)
    assert failed_at(lines, 3) is None
    assert when("step 10 loss 2.5") is None
