"""A step that stands still longer than its log's own rhythm allows is a stall
(`ProgressTracker.stalled`): the job screen says so with what it costs. Times are injected."""

from __future__ import annotations

from tui.logs.progress import STALL_FLOOR, STALL_UNTIMED, ProgressTracker


def _fed(times: list[float]) -> ProgressTracker:
    tracker = ProgressTracker()
    for i, at in enumerate(times):
        tracker.feed([f"iteration {i * 10}/1000 | lm loss: 2.5 |"], now=at)
    return tracker


def test_a_step_every_second_is_not_a_stall_until_the_floor():
    tracker = _fed([float(t) for t in range(20)])
    assert tracker.stalled(now=20.0) is None
    assert tracker.stalled(now=19 + STALL_FLOOR - 1) is None
    assert tracker.stalled(now=19 + STALL_FLOOR + 10) == STALL_FLOOR + 10


def test_the_logs_own_pauses_widen_what_counts_as_a_stall():
    # steps every second, one evaluation pass of 100 s between them: 5 x 100 s is its rhythm
    times = [float(t) for t in range(10)] + [109.0 + t for t in range(10)]
    tracker = _fed(times)
    assert tracker.stalled(now=118 + 400) is None  # longer than the floor, within 5 x 100 s
    assert tracker.stalled(now=118 + 520) == 520


def test_a_log_read_in_one_go_waits_the_untimed_limit():
    tracker = _fed([0.0] * 30)  # a backlog: every line arrived at one moment
    assert tracker.stalled(now=STALL_UNTIMED - 1) is None
    assert tracker.stalled(now=STALL_UNTIMED + 1) == STALL_UNTIMED + 1


def test_no_step_seen_is_no_stall_claimed():
    tracker = ProgressTracker()
    tracker.feed(["loading the dataset", "loss 2.5"], now=0.0)
    assert tracker.stalled(now=10_000.0) is None


def test_a_bar_redrawn_on_the_same_step_does_not_move_it():
    tracker = ProgressTracker()
    for t in range(400):
        step = min(t, 5)  # a bar that climbs to 5/100 in five seconds, then stands there
        bar = f"{step:3d}%|▌         | {step}/100 [00:05<01:35,  1.00it/s]"
        tracker.feed_partial(bar, now=float(t))
    assert tracker.stalled(now=5 + STALL_FLOOR - 1) is None
    assert tracker.stalled(now=400.0) == 395  # redrawn 395 times, still since t = 5
