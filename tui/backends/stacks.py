"""Every rank's Python stack for one job, from any backend, grouped (`tui.logs.stacks`).

A backend that can ask its ranks (the local one: `ask_stacks`, SIGUSR1 to each rank) does, and
each rank's answer is what its log gained since; a rank that did not answer, and every rank on
a backend that cannot ask (Azure ML), counts with the last dump its log holds, the one it wrote
on its own after staying in one place (DTRAIN_STACKS minutes). Blocking: call it from a thread
worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tui.backends.base import JobHandle
from tui.logs.names import rank_logs
from tui.logs.sources import LogSource, read_tail
from tui.logs.stacks import Dump, Frame, Group, group, last_dump

TAIL = 1 << 20
"""How much of each rank log's end is searched for a dump written on its own."""


@dataclass
class Stacks:
    """What `collect` found: the groups (odd ones out first), each rank's dump and log."""

    groups: list[Group]
    dumps: dict[int, Dump]
    logs: dict[int, str]
    """Rank → its log's name."""
    asked: int = 0
    """Ranks that were sent the signal (0 on a backend that cannot ask)."""
    answered: set[int] = field(default_factory=set)
    """Ranks whose dump is fresh (written after the signal)."""

    @property
    def missing(self) -> list[int]:
        return sorted(r for r in self.logs if r not in self.dumps)

    def note(self) -> str:
        """Where the stacks come from, in one line."""
        if not self.dumps:
            if self.asked:
                return f"asked {self.asked} processes; no stack came back within the wait"
            return (
                "no rank has printed its stacks yet (a rank prints them after DTRAIN_STACKS "
                "minutes in one place; the dumper is off when the job ran with stacks 0)"
            )
        old = len(self.dumps) - len(self.answered)
        if self.asked and not old:
            return f"asked {self.asked} rank processes just now"
        if self.asked:
            return f"asked just now; {old} ranks did not answer: their last stacks on record"
        return "the stacks each rank last printed on its own (Azure ML cannot be asked)"


def collect(backend: object, job: JobHandle, wait: float = 2.5) -> Stacks:
    """Every rank's stack for `job` on `backend` (see the module docstring)."""
    sources: Mapping[str, LogSource] = backend.log_sources(job)  # type: ignore[attr-defined]
    ranks = {r.rank: r.name for r in rank_logs(sources)}
    asked, fresh = 0, {}
    ask = getattr(backend, "ask_stacks", None)
    if ask is not None:
        asked, fresh = ask(job, wait)
    dumps: dict[int, Dump] = {}
    answered: set[int] = set()
    for rank, name in ranks.items():
        dump = last_dump(enumerate(fresh.get(name, "").splitlines(), 1))
        if dump is not None:
            dumps[rank], _ = dump, answered.add(rank)
    rest = {r: n for r, n in ranks.items() if r not in dumps}
    if rest:
        tails = asyncio.run(_tails({r: sources[n] for r, n in rest.items()}))
        for rank, text in tails.items():
            dump = last_dump(enumerate(text.splitlines(), 1))
            if dump is not None:
                dumps[rank] = dump
    return Stacks(group(dumps, _source_line), dumps, ranks, asked, answered)


async def _tails(sources: Mapping[int, LogSource]) -> dict[int, str]:
    out = {}
    for rank, source in sources.items():
        try:
            _, data = await read_tail(source, TAIL)
        except Exception:
            data = b""
        out[rank] = data.decode("utf-8", "replace")
    return out


def _source_line(frame: Frame) -> str | None:
    """The frame's line of code where its file is on this machine (a local job's code copy)."""
    try:
        with Path(frame.file).open(encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, 1):
                if number == frame.line:
                    return text.strip()
    except OSError:
        return None
    return None
