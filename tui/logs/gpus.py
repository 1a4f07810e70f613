"""Each GPU's use, read back from the sampler's marked lines in the rank logs, and what stands out.

The in-job sampler (`tui/injob/dtrain_tui_gpus.py`) writes, from local rank 0 of each node:

    dtrain-tui gpus: node=0 t=1700000000 0:97,31500/81920 1:3,1200/81920

`GpuWatch` keeps the last `WINDOW` seconds of those samples per node and GPU (by the sampler's
own clock, `t=`), draws them as one line, and applies one rule: a GPU idle for much of the
window while its peers (every other GPU of the job) are busy is named, with the likely reason.
It compares GPUs with each other only: nothing here knows a framework or a model.
No UI here: the job screen reads the same watch.
"""

from __future__ import annotations

import re
import statistics
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

MARK = "dtrain-tui gpus:"
"""The start of a sample line (kept equal to the sampler's `MARK`)."""
MARK_BYTES = MARK.encode()
WINDOW = 600.0
"""Seconds of samples the rule looks at: the last 10 minutes."""
IDLE = 10
"""Utilisation (%) at or under which a GPU counts as idle in a sample."""
ODD_IDLE = 0.5
"""A GPU idle in at least this share of its samples stands out…"""
PEERS_IDLE = 0.2
"""…while its peers (their median) are idle in at most this share."""
MIN_SAMPLES = 3
"""Samples a GPU needs in the window before the rule says anything about it."""

_HEAD = re.compile(r"dtrain-tui gpus: node=(\S+) t=(\d+(?:\.\d+)?)((?: \S+)*)\s*$")
_GPU = re.compile(r"(\d+):(\d+(?:\.\d+)?|-),(\d+(?:\.\d+)?|-)/(\d+(?:\.\d+)?|-)$")


@dataclass(frozen=True)
class Gpu:
    """One GPU in one sample."""

    index: int
    util: float | None
    """Utilisation (%); None where the GPU did not say."""
    used: float | None
    """Memory used (MiB)."""
    total: float | None
    """Memory on the GPU (MiB)."""


@dataclass(frozen=True)
class Sample:
    """One sample line: a node's GPUs at a moment (unix seconds, the node's clock)."""

    node: str
    t: float
    gpus: tuple[Gpu, ...]


def is_sample(line: str) -> bool:
    """Whether a log line is the sampler's (the log view and the chart leave it out)."""
    return MARK in line


def parse(line: str) -> Sample | None:
    """The sample a line holds, or None. Text before the mark (a launcher's rank tag, a time
    stamp) is ignored."""
    at = line.find(MARK)
    head = _HEAD.match(line, at) if at >= 0 else None
    if head is None:
        return None
    gpus = []
    for token in head.group(3).split():
        if (m := _GPU.match(token)) is None:
            return None
        util, used, total = (None if v == "-" else float(v) for v in m.group(2, 3, 4))
        gpus.append(Gpu(int(m.group(1)), util, used, total))
    return Sample(head.group(1), float(head.group(2)), tuple(gpus)) if gpus else None


@dataclass(frozen=True)
class Odd:
    """A GPU that stands out against its peers in the window."""

    node: str
    index: int
    idle: float
    """Share of its samples in the window it was idle (0–1)."""
    peers_busy: float
    """Its peers' median utilisation (%) over the window."""


class GpuWatch:
    """The last `WINDOW` seconds of samples per (node, GPU), fed line by line."""

    def __init__(self, window: float = WINDOW) -> None:
        self.window = window
        self.series: dict[tuple[str, int], deque[tuple[float, Gpu]]] = {}
        """(node, GPU index) → (t, the GPU) in arrival order."""
        self.latest = 0.0
        """The newest sample's time seen (unix seconds)."""

    def feed(self, lines: Iterable[str]) -> int:
        """Take the sample lines among `lines`; how many were samples."""
        taken = 0
        for line in lines:
            if MARK in line and (sample := parse(line)) is not None:
                self.add(sample)
                taken += 1
        return taken

    def add(self, sample: Sample) -> None:
        self.latest = max(self.latest, sample.t)
        for gpu in sample.gpus:
            kept = self.series.setdefault((sample.node, gpu.index), deque())
            kept.append((sample.t, gpu))
        start = self.latest - self.window
        for kept in self.series.values():
            while kept and kept[0][0] < start:
                kept.popleft()

    @property
    def seen(self) -> bool:
        return bool(self.series)

    def _nodes(self) -> list[str]:
        return sorted({node for node, _ in self.series}, key=_order)

    def _name(self, node: str, index: int) -> str:
        return f"GPU {index}" + (f" on node {node}" if len(self._nodes()) > 1 else "")

    def summary(self) -> str:
        """The newest sample of every GPU: `node 0: 0 97 % 30.8/80.0 GB · 1 3 % 1.2/80.0 GB`."""
        parts = []
        for node in self._nodes():
            gpus = sorted((i, s[-1][1]) for (n, i), s in self.series.items() if n == node and s)
            cells = " · ".join(f"{i} {_use(g)}" for i, g in gpus)
            parts.append(f"node {node}: {cells}" if len(self._nodes()) > 1 else cells)
        return "   ".join(parts)

    def odd(self) -> list[Odd]:
        """GPUs idle in at least `ODD_IDLE` of their samples while their peers (the job's other
        GPUs, median) are idle in at most `PEERS_IDLE`: one comparison for every GPU."""
        idle: dict[tuple[str, int], float] = {}
        busy: dict[tuple[str, int], float] = {}
        for key, kept in self.series.items():
            utils = [g.util for _, g in kept if g.util is not None]
            if len(utils) >= MIN_SAMPLES:
                idle[key] = sum(u <= IDLE for u in utils) / len(utils)
                busy[key] = statistics.median(utils)
        out = []
        for key, share in idle.items():
            peers = [k for k in idle if k != key]
            if share < ODD_IDLE or not peers:
                continue
            if statistics.median(idle[k] for k in peers) <= PEERS_IDLE:
                peers_busy = statistics.median(busy[k] for k in peers)
                out.append(Odd(key[0], key[1], share, peers_busy))
        return sorted(out, key=lambda o: (-o.idle, _order(o.node), o.index))

    def finding(self) -> str | None:
        """What stands out, in words, or None."""
        odd = self.odd()
        if not odd:
            return None
        minutes = f"{self.window / 60:g} min"
        first = odd[0]
        text = (
            f"{self._name(first.node, first.index)} idle {first.idle * 100:.0f} % of the last "
            f"{minutes} while the others are busy (median {first.peers_busy:.0f} %): its input "
            "pipeline, or no rank on it?"
        )
        if len(odd) > 1:
            text += f" (also {', '.join(self._name(o.node, o.index) for o in odd[1:])})"
        return text


def _order(node: str) -> tuple[int, str]:
    return (int(node), "") if node.isdigit() else (1 << 30, node)


def _use(gpu: Gpu) -> str:
    util = "?" if gpu.util is None else f"{gpu.util:.0f} %"
    if gpu.used is None or gpu.total is None:
        return util
    return f"{util} {gpu.used / 1024:.1f}/{gpu.total / 1024:.0f} GB"


TAIL = 1 << 20
"""Bytes read from the end of a log the first time: older samples are out of the window anyway."""


class SampleFiles:
    """Reads the sample lines of logs on this machine, each file from where it was last read
    (a `bytes.find` for the mark over the new bytes only), and counts their bytes, so a rank's
    own output can be told from the sampler's (`own_sizes`). Safe to call from two threads."""

    def __init__(self, tail: int = TAIL) -> None:
        self.tail = tail
        self._offsets: dict[str, int] = {}
        self._sizes: dict[str, int] = {}
        self._marked: dict[str, int] = {}
        self._lock = threading.Lock()

    def read(self, paths: Iterable[str]) -> list[str]:
        """The complete sample lines written to `paths` since the last read."""
        lines: list[str] = []
        with self._lock:
            for path in paths:
                try:
                    with open(path, "rb") as f:
                        size = f.seek(0, 2)
                        start = self._offsets.get(path, max(0, size - self.tail))
                        if size < start:  # rewritten from the start
                            start, self._marked[path] = 0, 0
                        f.seek(start)
                        data = f.read(size - start)
                except OSError:
                    continue
                end = data.rfind(b"\n") + 1
                self._offsets[path], self._sizes[path] = start + end, size
                new = _marked(data[:end])
                self._marked[path] = self._marked.get(path, 0) + sum(
                    len(line.encode("utf-8", "replace")) + 1 for line in new
                )
                lines += new
        return lines

    def own_sizes(self) -> dict[str, int]:
        """Each log's size, as last read, less the sample lines in it: the bytes its rank wrote
        (a hung rank's log must not grow by the sampler's line every 30 s)."""
        with self._lock:
            return {p: size - self._marked.get(p, 0) for p, size in self._sizes.items()}


def _marked(data: bytes) -> list[str]:
    out = []
    at = data.find(MARK_BYTES)
    while at >= 0:
        first = data.rfind(b"\n", 0, at) + 1
        last = data.find(b"\n", at)
        out.append(data[first:last].decode("utf-8", "replace"))
        at = data.find(MARK_BYTES, last)
    return out
