"""`RankWatch` measures silence against each rank's own history (issue 40, item 2): a rank that
kept a pace and stopped is a suspect; one that prints nothing, or only a few lines at start-up,
is quiet however long rank 0 goes on; an empty log has not grown. The clock is the test's."""

from __future__ import annotations

from tui.logs.rank_watch import RankWatch


def run(watch: RankWatch, rank1: dict[float, int], until: float, step: float = 1.0):
    """Rank 0 grows every `step` s up to `until`; rank 1's size is `rank1[t]` (or its last)."""
    t, size0, size1 = 0.0, 0, 0
    while t <= until:
        size0 += 40
        size1 = rank1.get(t, size1)
        watch.observe({0: size0, 1: size1}, t)
        t += step
    return watch.verdict(t - step)


def test_an_empty_log_has_not_grown_and_is_never_a_suspect():
    watch = RankWatch(poll_interval=1.0)
    verdict = run(watch, {0.0: 0}, until=300)
    assert watch.ranks[1].grew_at is None and watch.ranks[1].silent_for is None
    assert watch.ranks[1].state == "quiet" and verdict.suspects == ()
    assert not verdict.all_silent


def test_a_start_up_burst_then_silence_is_quiet_not_a_suspect():
    watch = RankWatch(poll_interval=1.0)
    # warnings, the environment, "world size": four growths in the first 5 s, then nothing
    verdict = run(watch, {0.0: 120, 1.0: 300, 3.0: 420, 5.0: 500}, until=300)
    assert verdict.suspects == () and watch.ranks[1].state == "quiet"


def test_a_rank_that_kept_a_pace_and_stopped_is_a_suspect():
    watch = RankWatch(poll_interval=1.0)
    run(watch, {float(t): 40 * (t + 1) for t in range(30)}, until=29)
    watch.observe({0: 10_000}, 31.0)
    assert watch.verdict(31.0).suspects == ()  # silent 2 s: twice its usual gap, not more
    watch.observe({0: 10_040}, 32.0)
    verdict = watch.verdict(32.0)
    assert verdict.suspects == (1,) and watch.ranks[1].state == "suspect"
