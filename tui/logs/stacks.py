"""Python stacks in rank logs: faulthandler's dumps read back, grouped, the odd ones out first.

A dump is what `faulthandler` writes (on SIGUSR1, or dtrain-tui's stall watch, see
`tui/injob/sitecustomize.py`): one block per thread, `Thread 0x… (most recent call first):`
then `  File "x.py", line 41 in load_batch` lines, the interpreter's main thread last. What a
rank is doing is its main thread's stack; ranks whose stacks are the same form one group, and
the smallest groups lead: in a hang, the rank that is elsewhere is the one the others wait for.

```python
dumps = {rank: last_dump(lines) for rank, lines in logs.items()}
groups = group(dumps)            # [Group(ranks=(5,), …), Group(ranks=(0, 1, 2, 3, 4, 6, 7), …)]
summary(groups)                  # "rank 5: time.sleep ← load_batch data.py:41 · 7 ranks: …"
```
No UI here: the job screen, `dtrain-tui stacks` and the doctor read the same groups.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePath

from tui.core.words import counted
from tui.logs.causes import ECHO, ROOT
from tui.logs.doctor_findings import Finding
from tui.logs.evidence import Stream

STALL_MARK = "dtrain-tui stacks:"
"""The line the stall watch writes before its dump (kept equal to the module's `MARK`)."""
_THREAD = re.compile(
    r"(?:(Current thread)|Thread) (0x[0-9a-fA-F]+)(?: \[[^\]]*\])? \(most recent call first\):"
)
_STACK = re.compile(r"Stack \(most recent call first\):")
_FRAME = re.compile(r"File \"(.*)\", line (\d+) in (.+?)\s*$")
_LIBRARY = re.compile(r"[/\\](?:site|dist)-packages[/\\]|[/\\]lib[/\\]python\d|^<frozen ")
_CALL = re.compile(r"([A-Za-z_][\w.]*)\s*\(")


@dataclass(frozen=True)
class Frame:
    """One line of a stack: file, line, function."""

    file: str
    line: int
    function: str

    @property
    def library(self) -> bool:
        """In the standard library or an installed package, not the job's own code."""
        return bool(_LIBRARY.search(self.file))

    @property
    def where(self) -> str:
        return f"{PurePath(self.file).name}:{self.line}"


@dataclass(frozen=True)
class Dump:
    """One rank's dump: its main thread's frames (innermost first) and where it was read."""

    frames: tuple[Frame, ...]
    line: int
    """The log line (from 1) of the main thread's innermost frame."""
    threads: int
    stalled: bool
    """Written by the stall watch on its own (not asked for by a signal)."""
    lines: range = range(0)
    """Every log line the dump takes (its own words, not a failure's)."""

    @property
    def key(self) -> tuple[tuple[str, int, str], ...]:
        """What makes two stacks the same: file names, not folders (each simulated node, and
        each Azure ML node, runs its own copy of the code)."""
        return tuple((PurePath(f.file).name, f.line, f.function) for f in self.frames)


def parse_dumps(lines: Iterable[tuple[int, str]]) -> list[Dump]:
    """Every dump in a log's `(line number, text)` lines, in order. Text before the dump's own
    words on a line (a launcher's rank tag, a time stamp) is ignored."""
    dumps: list[Dump] = []
    threads: list[tuple[int, list[Frame], int]] = []  # (ident, frames, first frame's line)
    frames: list[Frame] | None = None
    stalled = pending_stall = False
    last = start = -10

    def close() -> None:
        nonlocal threads, stalled
        if threads:
            kept = [t for t in threads if not _watcher(t[1])]
            main = kept[-1] if kept else threads[-1]
            span = range(start - stalled, last + 1)
            dumps.append(Dump(tuple(main[1]), main[2], len(kept), stalled, span))
        threads, stalled = [], False

    for number, text in lines:
        if STALL_MARK in text:
            close()
            pending_stall, frames = True, None
            continue
        header = _THREAD.search(text) or _STACK.search(text)
        if header:
            if number > last + 2 or not threads:  # a new dump, not the next thread of this one
                close()
                stalled, pending_stall, start = pending_stall, False, number
            frames = []
            threads.append((len(threads), frames, number + 1))
            last = number
            continue
        frame = _FRAME.search(text) if frames is not None else None
        if frame:
            frames.append(Frame(frame.group(1), int(frame.group(2)), frame.group(3)))
            last = number
        elif frames is not None and text.strip() in ("", "...", "<no Python frame>"):
            last = number if text.strip() else last
        elif frames is not None:
            frames = None
            close()
    close()
    return dumps


def _watcher(frames: list[Frame]) -> bool:
    """The stall watch's own thread (it is no part of what the rank was doing)."""
    return bool(frames) and frames[0].function == "watch" and "sitecustomize" in frames[0].file


def last_dump(lines: Iterable[tuple[int, str]]) -> Dump | None:
    """The most recent dump in a log, or None."""
    dumps = parse_dumps(lines)
    return dumps[-1] if dumps else None


@dataclass(frozen=True)
class Group:
    """Ranks whose main threads are in the same place, and that place in words."""

    ranks: tuple[int, ...]
    dump: Dump
    text: str
    """`time.sleep ← load_batch data.py:41`."""


def describe(dump: Dump, source: Callable[[Frame], str | None] | None = None) -> str:
    """Where a stack is, in a few words: the innermost call, then the job's own frame that led
    there with its file and line. `source` gives a frame's line of code where it is known
    (this machine), to name a C function the innermost Python frame is calling."""
    if not dump.frames:
        return "no Python frame (in native code)"
    inner = dump.frames[0]
    own = next((f for f in dump.frames if not f.library), None)
    called = None
    if source is not None and (code := source(inner)):
        calls = _CALL.findall(code)
        called = calls[0] if calls else None
    if own is None:
        return f"{inner.function} {inner.where}"
    head = inner.function if inner is not own else called
    return f"{head} ← {own.function} {own.where}" if head else f"{own.function} {own.where}"


def group(
    dumps: Mapping[int, Dump | None], source: Callable[[Frame], str | None] | None = None
) -> list[Group]:
    """Ranks with a dump, grouped by their main thread's stack; smallest groups first (the odd
    ones out), then by their first rank."""
    by_key: dict[tuple, list[int]] = {}
    first: dict[tuple, Dump] = {}
    for rank in sorted(dumps):
        dump = dumps[rank]
        if dump is None:
            continue
        by_key.setdefault(dump.key, []).append(rank)
        first.setdefault(dump.key, dump)
    groups = [Group(tuple(r), first[k], describe(first[k], source)) for k, r in by_key.items()]
    return sorted(groups, key=lambda g: (len(g.ranks), g.ranks[0]))


def odd_one_out(groups: list[Group]) -> int | None:
    """The one rank elsewhere while all the others share one stack (a hang's likely culprit),
    or None when the stacks do not point at one rank."""
    if len(groups) != 2 or len(groups[0].ranks) != 1 or len(groups[1].ranks) < 2:
        return None
    return groups[0].ranks[0]


def ranks_words(ranks: tuple[int, ...]) -> str:
    """`rank 5`, `7 ranks` (their numbers are in the detail)."""
    return f"rank {ranks[0]}" if len(ranks) == 1 else counted(len(ranks), "rank")


def summary(groups: list[Group]) -> str:
    """One line: `rank 5: time.sleep ← load_batch data.py:41 · 7 ranks: all_reduce ← …`."""
    if not groups:
        return "no stacks yet"
    return " · ".join(f"{ranks_words(g.ranks)}: {g.text}" for g in groups)


def span(ranks: tuple[int, ...]) -> str:
    """`0-4, 6, 7`: ranks as ranges."""
    out: list[str] = []
    start = prev = ranks[0]
    for r in (*ranks[1:], None):
        if r is not None and r == prev + 1:
            prev = r
            continue
        out.append(
            f"{start}-{prev}" if prev > start + 1 else ", ".join(map(str, range(start, prev + 1)))
        )
        if r is not None:
            start = prev = r
    return ", ".join(out)


def detail(groups: list[Group]) -> list[str]:
    """Every group with its ranks and its whole main-thread stack (innermost first)."""
    lines: list[str] = []
    for g in groups:
        lines.append(f"{ranks_words(g.ranks)} ({span(g.ranks)}): {g.text}")
        lines += [f"    {f.function}  {f.file}:{f.line}" for f in g.dump.frames]
    return lines


def dumped_lines(by_rank: Mapping[int | None, Stream]) -> set[tuple[str, int]]:
    """(log, line) of every line inside a stack dump: read as stacks, never as a failure."""
    out: set[tuple[str, int]] = set()
    for stream in by_rank.values():
        logs: dict[str, list[tuple[int, str]]] = {}
        for line in stream.lines:
            logs.setdefault(line.where.log, []).append((line.where.line, line.text))
        for log, lines in logs.items():
            for dump in parse_dumps(lines):
                out.update((log, n) for n in dump.lines)
    return out


def hang_findings(by_rank: Mapping[int | None, Stream]) -> list[Finding]:
    """The doctor's evidence of a hang: the odd rank out's innermost frame first, then one
    frame from each other group's first rank; [] when the stacks do not point at one rank."""
    dumps = {
        rank: last_dump((line.where.line, line.text) for line in stream.lines)
        for rank, stream in by_rank.items()
        if rank is not None
    }
    groups = group(dumps)
    culprit = odd_one_out(groups)
    if culprit is None:
        return []
    out = []
    for g in groups:
        rank = g.ranks[0]
        lines = {line.where.line: line for line in by_rank[rank].lines}
        line = lines.get(_own_line(g.dump))
        if line is not None:
            out.append(Finding("hang", rank, ROOT if rank == culprit else ECHO, line.where))
    return out if out and out[0].rank == culprit else []


def _own_line(dump: Dump) -> int:
    """The log line of the dump's innermost frame in the job's own code (else its innermost)."""
    own = next((i for i, f in enumerate(dump.frames) if not f.library), 0)
    return dump.line + own
