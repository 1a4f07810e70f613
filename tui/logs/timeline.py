"""Where a job's time went (issue 41): created → waiting for nodes and the environment →
running → (after the first failure, the ranks still up) → ended, each phase with how long it
took and, at the plan's price, what it cost.

Only what the backend recorded and the logs show is used: the service's created, started and
ended times, and for the first failure the earliest line that says the culprit rank ended
(exited, failed, was killed) and carries a time with its zone (a launcher's or the platform's
own log: a time without a zone cannot be placed against the service's). What is not known is
left out rather than guessed: Azure ML bills a node from its allocation, which may fall
anywhere in the wait, so the wait's cost is said to be unknown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from tui.core.prices import money
from tui.core.words import clock


@dataclass(frozen=True)
class Phase:
    name: str
    start: datetime
    end: datetime
    billed: bool | None
    """True: the nodes run all of it; None: some of it, not known how much (the wait)."""

    @property
    def seconds(self) -> float:
        return max(0.0, (self.end - self.start).total_seconds())

    def cost(self, hourly: float | None) -> float | None:
        """What the phase cost at `hourly` for the job's nodes; None when not known."""
        if hourly is None or self.billed is None:
            return None
        return hourly * self.seconds / 3600 if self.billed else 0.0

    def to_json(self, hourly: float | None) -> dict[str, object]:
        return {
            "phase": self.name,
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
            "seconds": round(self.seconds, 3),
            "cost": None if (c := self.cost(hourly)) is None else round(c, 4),
        }


_ZONED = re.compile(
    r"^\W{0,3}(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?:Z|[+-]\d\d:?\d\d))"
)
_ENDED = r"(?i:\brank {rank}\b.{{0,60}}\b(?:exited|exit code|failed|killed|terminated|died)\b)"


def when(line: str) -> datetime | None:
    """The time a line starts with, when it says its zone (`2026-11-27T15:14:54.925+00:00`,
    `… 15:14:54Z`); None otherwise."""
    m = _ZONED.match(line)
    if m is None:
        return None
    try:
        return datetime.fromisoformat(m.group(1).replace(",", ".").replace("Z", "+00:00"))
    except ValueError:
        return None


def failed_at(lines: Iterable[str], rank: int) -> datetime | None:
    """The earliest zoned time of a line that says rank `rank` ended (a launcher's `rank 3 (pid
    …) exited with code 1`); None when no such line has one."""
    ended = re.compile(_ENDED.format(rank=rank))
    times = [t for line in lines if ended.search(line) and (t := when(line)) is not None]
    return min(times, default=None)


def phases(
    created: datetime | None,
    started: datetime | None,
    ended: datetime | None,
    now: datetime,
    failed_at: datetime | None = None,
    culprit: str = "the first rank",
    waiting: str = "waiting for nodes and the environment",
) -> list[Phase]:
    """The job's phases in order, each ending where the next begins (so their durations add up
    to the job's time from creation to its end, or to `now` while it runs). `failed_at`: when
    the first failure happened, if known; `waiting`: what the time before the start is called."""
    end = ended or now
    out: list[Phase] = []
    if created is not None and started is not None and started > created:
        out.append(Phase(waiting, created, started, None))
    if started is None:
        if created is not None:
            out.append(Phase(waiting, created, end, None))
        return out
    if failed_at is not None and started <= failed_at < end:
        out.append(Phase("running", started, failed_at, True))
        out.append(Phase(f"after {culprit} failed, until the job ended", failed_at, end, True))
    else:
        out.append(Phase("running", started, end, True))
    return out


def describe(timeline: list[Phase], hourly: float | None) -> list[str]:
    """One line a phase and one for the whole: `running 2:10:00 · ≈ $118.00` (`hourly`: the
    job's nodes' price per hour; None: no cost is said)."""
    lines = []
    for phase in timeline:
        cost = phase.cost(hourly)
        if hourly is None:
            said = ""
        elif cost is None:
            said = " · billed from the nodes' allocation, which the service did not say"
        else:
            said = f" · ≈ {money(cost)}"
        lines.append(f"{phase.name} {clock(phase.seconds)}{said}")
    if timeline:
        total = sum(p.seconds for p in timeline)
        costs = [p.cost(hourly) for p in timeline]
        # the parts as shown (to the cent), so the total is their sum as a reader adds them
        known = sum(round(c, 2) if c >= 0.01 else c for c in costs if c is not None)
        said = "" if hourly is None else f" · ≈ {money(known)}"
        if hourly is not None and None in costs:
            said += " and the wait's share"
        lines.append(f"in all {clock(total)}{said}")
    return lines


def of_job(
    status: object,
    lines: Iterable[str],
    diagnosis: object,
    local: bool,
    now: datetime,
) -> list[Phase]:
    """The phases of a job from its backend's status (`created_at`, `started_at`, `ended_at`),
    its logs' lines and the doctor's diagnosis of them: the first failure placed by a zoned line
    that says the culprit rank ended. The doctor's command and screens read it alike."""
    rank = getattr(diagnosis, "rank", None)
    failed = bool(getattr(diagnosis, "failed", False))
    first = failed_at(lines, rank) if failed and rank is not None else None
    return phases(
        getattr(status, "created_at", None),
        getattr(status, "started_at", None),
        getattr(status, "ended_at", None),
        now,
        first,
        getattr(diagnosis, "culprit", None) if failed else "the first rank",
        "starting its processes here" if local else "waiting for nodes and the environment",
    )
