"""Every rank at a glance while a job runs: whose log grows, whose went quiet, and whether all did.

`RankWatch` is fed each rank's log size once per poll and says, per rank, how long since its log
last grew. Silence is measured against each rank's own history: a rank that printed steadily
(`MIN_OWN_GAPS` growths apart, over a while) and then stayed silent for about twice its own usual
gap while others still advance is a **straggler / hang suspect**. A rank that never kept a pace
(it prints nothing, or only a few lines at start: most scripts print on rank 0 only) is
**quiet**, never a suspect: a rank stuck in a collective stops the others too. Every rank silent
at once for twice the job's line interval (60 s until there is one) is a **possible collective
hang**. An empty log has not grown. No I/O here.

`SizePoller` gets those sizes at a cost that does not grow with ranks × polls: one listing call
per poll where the store gives sizes in a listing (local files: `stat`; Azure ML's artifact
datastore: one List Blobs call per 5,000 logs), else a budgeted round-robin of `size()` calls
(HEAD on a Run History SAS URL): at most `budget` requests per poll, the least recently asked
first, so a 1,024-rank job costs the same per poll as a 32-rank one and every rank is seen
every `ranks / budget` polls.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

NO_INTERVAL_YET = 60.0
"""Seconds of silence that make a suspect before the job's line interval is known."""
MIN_GAPS = 3
"""Ranks with a measured interval a job needs before its line interval is trusted."""
MIN_OWN_GAPS = 4
"""Gaps between growths a rank needs before its own pace is trusted (a suspect needs one)."""
PACE_SPAN = 2
"""A pace also needs the rank to have grown over this many times its silence threshold (four
usual gaps), so a burst of lines at start-up is not taken for one."""


@dataclass
class RankState:
    """What the strip shows for one rank."""

    rank: int
    size: int | None = None
    """Bytes in its log; None until the log exists."""
    grew_at: float | None = None
    """When its log last grew (the watch's clock); None while it is empty or absent."""
    first_grew_at: float | None = None
    """When its log first held bytes."""
    silent_for: float | None = None
    """Seconds since it last grew, as of the last `verdict()`; once the job has ended, between
    its last growth and the end (it stops counting: nothing grows after the end)."""
    state: str = "waiting"
    """waiting (no log yet), running, quiet (empty, slower than usual, or no pace of its own:
    never a suspect), suspect (it kept a pace and stopped), ended."""
    progress: str | None = None
    """The last progress value known for it (a step, a rate), set by whoever parses its log."""
    gaps: list[float] = field(default_factory=list)
    """Recent seconds between growths (the last 16)."""


@dataclass(frozen=True)
class Verdict:
    """The job as a whole: its line interval, the suspects, and whether all went silent."""

    interval: float | None
    threshold: float
    suspects: tuple[int, ...]
    all_silent: bool

    def summary(self) -> str:
        if self.all_silent:
            return f"every rank silent for {self.threshold:.0f} s+: possible collective hang"
        if self.suspects:
            shown = ", ".join(str(r) for r in self.suspects[:8])
            more = f" (+{len(self.suspects) - 8})" if len(self.suspects) > 8 else ""
            return f"straggler / hang suspect: rank {shown}{more}"
        return ""


class RankWatch:
    """Per-rank log growth over time, and who stopped while the others went on."""

    def __init__(self, ranks: int = 0, *, poll_interval: float = 1.0) -> None:
        self.ranks: dict[int, RankState] = {r: RankState(r) for r in range(ranks)}
        self.poll_interval = poll_interval
        """Seconds between polls: nothing quieter than two polls can be told apart."""
        self.ended = False
        """The job has ended: nobody is a suspect any more."""
        self.ended_at: float | None = None
        """When the first verdict after the end was made (the watch's clock): the end, as
        the polls saw it."""

    def observe(self, sizes: Mapping[int, int | None], now: float) -> None:
        """Sizes read at `now` (ranks not in `sizes` were not asked this poll)."""
        for rank, size in sizes.items():
            state = self.ranks.setdefault(rank, RankState(rank))
            if size is None:
                continue
            if size > (state.size or 0):  # an empty log that appears has not grown
                if state.grew_at is not None:
                    state.gaps = [*state.gaps[-15:], now - state.grew_at]
                else:
                    state.first_grew_at = now
                state.grew_at = now
            state.size = size

    def set_progress(self, rank: int, value: str | None) -> None:
        """A rank's last progress value (step, rate) as a short text; None clears it."""
        self.ranks.setdefault(rank, RankState(rank)).progress = value

    def interval(self) -> float | None:
        """The job's normal seconds between log growths: the median of the ranks' medians, once
        at least half the ranks that started (and `MIN_GAPS` of them) have grown 3 times."""
        medians = [statistics.median(s.gaps) for s in self.ranks.values() if len(s.gaps) >= 2]
        started = sum(1 for s in self.ranks.values() if s.grew_at is not None)
        if not medians or len(medians) < max(min(MIN_GAPS, started), started / 2):
            return None
        return statistics.median(medians)

    def threshold(self) -> float:
        """Seconds of silence that make a suspect: twice the interval, at least two polls."""
        interval = self.interval()
        if interval is None:
            return NO_INTERVAL_YET
        return max(2 * interval, 2 * self.poll_interval)

    def own_threshold(self, state: RankState) -> float | None:
        """Seconds of silence that make `state`'s rank a suspect: twice its own usual gap (at
        least two polls); None while it has no pace of its own (too few growths, or only a
        burst at start-up)."""
        if len(state.gaps) < MIN_OWN_GAPS or state.grew_at is None:
            return None
        own = max(2 * statistics.median(state.gaps), 2 * self.poll_interval)
        first = state.grew_at if state.first_grew_at is None else state.first_grew_at
        span = state.grew_at - first
        return own if span >= PACE_SPAN * own else None

    def verdict(self, now: float) -> Verdict:
        """Update every rank's state as of `now`; the suspects and the job's verdict."""
        threshold = self.threshold()
        started = [s for s in self.ranks.values() if s.grew_at is not None]
        if self.ended and self.ended_at is None:
            self.ended_at = now
        until = now if self.ended_at is None else self.ended_at
        for s in self.ranks.values():
            s.silent_for = None if s.grew_at is None else max(0.0, until - s.grew_at)
        own = {s.rank: self.own_threshold(s) for s in started}
        silent = [s for s in started if (s.silent_for or 0.0) > (own[s.rank] or threshold)]
        all_silent = bool(started) and len(silent) == len(started) and not self.ended
        # A straggler is silent while the others advance: when most are silent, it is the
        # job's pace (an evaluation, a checkpoint), not one rank. Only a rank that kept a pace
        # of its own can be one: a rank that prints little is measured against nothing.
        paced = [s.rank for s in silent if own[s.rank] is not None]
        advancing = len(started) - len(silent) >= len(paced)
        suspects = paced if advancing and not self.ended else []
        for s in self.ranks.values():
            if s.size is None:
                s.state = "waiting"
            elif self.ended:
                s.state = "ended"
            elif s.grew_at is None:
                s.state = "quiet"  # its log is there, empty: a rank that prints nothing
            elif s.rank in suspects or all_silent:
                s.state = "suspect"
            elif (s.silent_for or 0.0) > (own[s.rank] or threshold) / 2:
                s.state = "quiet"
            else:
                s.state = "running"
        return Verdict(self.interval(), threshold, tuple(sorted(suspects)), all_silent)


SizeLister = Callable[[], Awaitable[Mapping[str, int] | None]]
"""One call that returns every log's size (a folder's `stat`, a blob listing); None when the
store cannot be listed after all (the poller then asks sizes one by one)."""


class SizePoller:
    """Each rank log's size per poll: one listing call, or `budget` size() calls round-robin.

    With both a lister and sources, the round-robin is the fallback for a lister that answers
    None (the store cannot be listed); a listing that fails is a poll with no sizes known.
    """

    def __init__(
        self,
        names: Mapping[int, str],
        sources: Mapping[str, object] | None = None,
        *,
        lister: SizeLister | None = None,
        budget: int = 32,
    ) -> None:
        self.names = dict(names)
        """rank → log name."""
        self.sources = dict(sources or {})
        self.lister = lister
        self.budget = budget
        self.requests = 0
        """Calls made so far (listings or size() calls)."""
        self._queue = list(self.names)

    async def poll(self) -> dict[int, int | None]:
        """Sizes for the ranks asked this poll (all of them with a lister)."""
        if self.lister is not None:
            self.requests += 1
            try:
                listed = await self.lister()
            except Exception:  # not known this poll, not silent: the next listing may work
                return {}
            if listed is not None:
                return {rank: listed.get(name) for rank, name in self.names.items()}
            self.lister = None
        asked, self._queue = self._queue[: self.budget], self._queue[self.budget :]
        self._queue.extend(asked)
        sizes = await asyncio.gather(*(self._size(r) for r in asked))
        return dict(zip(asked, sizes, strict=True))

    async def _size(self, rank: int) -> int | None:
        source = self.sources.get(self.names[rank])
        if source is None:
            return None
        self.requests += 1
        try:
            return await source.size()  # type: ignore[attr-defined]
        except Exception:  # a failed HEAD is a size not known this poll, not a silent rank
            return None


def stat_lister(paths: Mapping[str, object]) -> SizeLister:
    """A lister for local files: their sizes by `stat` (missing files are left out)."""

    async def listed() -> dict[str, int]:
        out = {}
        for name, path in paths.items():
            try:
                out[name] = path.stat().st_size  # type: ignore[attr-defined]
            except OSError:
                continue
        return out

    return listed
