"""`RankWatch` and `SizePoller` on a clock the test drives: a rank silent for twice the job's
line interval is a suspect (not sooner), all silent is a possible collective hang, and remote
sizes cost at most `budget` requests per poll whatever the number of ranks."""

from __future__ import annotations

import asyncio

from tui.logs.rank_watch import NO_INTERVAL_YET, RankWatch, SizePoller, stat_lister


def feed(watch: RankWatch, until: float, stalled: set[int] = frozenset(), step=0.5, start=0.0):
    """Every rank grows by 10 bytes every `step` s, except `stalled` after time 0."""
    t = start
    sizes = {r: 0 for r in watch.ranks}
    while t <= until:
        for r in sizes:
            if r not in stalled or t == start:
                sizes[r] += 10
        watch.observe(dict(sizes), t)
        t += step
    return t - step


def test_a_rank_is_a_suspect_after_twice_the_line_interval_and_not_sooner():
    watch = RankWatch(4, poll_interval=0.5)
    last = feed(watch, 10.0)
    assert watch.interval() == 0.5 and watch.threshold() == 1.0
    assert watch.verdict(last).suspects == ()
    sizes = {r: s.size for r, s in watch.ranks.items()}
    t = last
    for _ in range(2):  # 1.0 s later: rank 2 silent exactly the threshold, not more
        t += 0.5
        sizes = {r: (s + 10 if r != 2 else s) for r, s in sizes.items()}
        watch.observe(sizes, t)
    assert watch.verdict(t).suspects == ()
    t += 0.5
    watch.observe({r: (s + 10 if r != 2 else s) for r, s in sizes.items()}, t)
    verdict = watch.verdict(t)
    assert verdict.suspects == (2,) and not verdict.all_silent
    assert watch.ranks[2].state == "suspect" and watch.ranks[0].state == "running"
    assert verdict.summary() == "straggler / hang suspect: rank 2"


def test_every_rank_silent_at_once_is_a_possible_collective_hang():
    watch = RankWatch(3, poll_interval=0.5)
    last = feed(watch, 5.0)
    verdict = watch.verdict(last + 1.5)
    assert verdict.all_silent and verdict.suspects == ()
    assert "possible collective hang" in verdict.summary()
    watch.ended = True
    assert not watch.verdict(last + 100).all_silent  # a finished job hangs nowhere


def test_before_the_interval_is_known_silence_must_last_60_s():
    watch = RankWatch(2)
    watch.observe({0: 10, 1: 10}, 0.0)
    assert watch.threshold() == NO_INTERVAL_YET
    assert watch.verdict(59.0).suspects == () and watch.verdict(61.0).all_silent


class CountingSource:
    def __init__(self, size: int) -> None:
        self.size_value = size
        self.calls = 0

    async def size(self) -> int:
        self.calls += 1
        return self.size_value


def test_round_robin_asks_at_most_budget_sizes_per_poll_and_covers_every_rank():
    names = {r: f"user_logs/std_log_process_{r}.txt" for r in range(1024)}
    sources = {n: CountingSource(r) for r, n in names.items()}
    poller = SizePoller(names, sources, budget=32)

    async def polls(n: int) -> list[dict[int, int | None]]:
        return [await poller.poll() for _ in range(n)]

    results = asyncio.run(polls(32))
    assert all(len(r) == 32 for r in results)
    assert poller.requests == 1024
    seen = {rank for r in results for rank in r}
    assert seen == set(range(1024))
    assert all(s.calls == 1 for s in sources.values())


def test_a_lister_costs_one_call_per_poll(tmp_path):
    paths = {}
    for r in range(3):
        p = tmp_path / f"std_log_process_{r}.txt"
        p.write_text("x" * r)
        paths[p.name] = p
    poller = SizePoller(
        {r: f"std_log_process_{r}.txt" for r in range(4)}, lister=stat_lister(paths)
    )
    sizes = asyncio.run(poller.poll())
    assert sizes == {0: 0, 1: 1, 2: 2, 3: None} and poller.requests == 1


def test_a_listing_that_fails_is_a_poll_with_no_sizes_not_silent_ranks():
    calls = []

    async def flaky():
        calls.append(1)
        if len(calls) == 1:
            raise OSError("connection reset")
        return {"a": 5}

    poller = SizePoller({0: "a"}, lister=flaky)
    assert asyncio.run(poller.poll()) == {}
    assert asyncio.run(poller.poll()) == {0: 5}
