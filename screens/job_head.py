"""Opening a log at its end: the tail first, the rest (the head) filled in behind it.

A finished 1 GB rank log takes ~11 s to read through; nobody should wait that long to see its
last line. `tail_start()` finds where the last `TAIL_BYTES` begin (one suffix read: a seek
locally, `Range: bytes=-65536` on a blob) at a line boundary, and the follower starts there,
so the last screen is drawn at once. `fill_head()` then reads everything before that boundary
into a store of its own, on the event loop in 1 MB reads with the line work in a thread, and
the log view takes it as its head when it is complete (search, filter, save and the chart then
cover the whole log). A log on this machine is not read through at all: the view indexes it
where it lies (`LogView.open_head`), and `head_progress()` samples it for the chart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

from tui.logs.assembler import LineAssembler
from tui.logs.progress import ProgressTracker
from tui.logs.progress_bulk import BulkReader, line_groups
from tui.logs.sources import LogSource, SourceError, read_tail
from widgets.log_store import LogStore

TAIL_BYTES = 64 << 10
"""Bytes read first from the end of a log."""
HEAD_READ = 1 << 20
"""Bytes per read while the head fills (the view stays responsive between reads)."""
PARSED_HEAD = 32 << 20
"""Of a longer head, about this many bytes are parsed for the chart (every k-th line of a head
read from afar, evenly spaced pieces of a local one): a chart at terminal width shows no more."""


async def tail_start(source: LogSource) -> int:
    """The offset to follow `source` from: the start of the first whole line among its last
    `TAIL_BYTES` (0 for a smaller log, or one that cannot be read yet)."""
    try:
        start, data = await read_tail(source, TAIL_BYTES)
    except SourceError:
        return 0
    if start == 0:
        return 0
    cut = data.find(b"\n")
    return 0 if cut < 0 else start + cut + 1


async def fill_head(
    source: LogSource,
    end: int,
    *,
    window: int,
    spool_dir: Path | None,
    progress: Callable[[int], None],
) -> tuple[LogStore, ProgressTracker]:
    """Bytes 0..`end` of `source` as a store (and their training progress); `progress(bytes)`
    after each read. Transient failures are retried; cancelling the worker stops it."""
    store = LogStore(window, spool_dir)
    tracker = ProgressTracker("log")
    assembler = LineAssembler()
    offset = 0
    every = max(1, end // PARSED_HEAD)
    try:
        while offset < end:
            try:
                data = await source.read(offset, min(HEAD_READ, end - offset))
            except SourceError:
                await asyncio.sleep(1.0)
                continue
            if not data:
                break  # the log shrank under us: the follower sees the rewrite and restarts
            offset += len(data)
            lines = assembler.feed(data)
            if offset >= end:
                lines += assembler.flush()  # `end` is a line boundary: nothing is cut
            await asyncio.to_thread(_take, store, tracker, lines, every)
            progress(offset)
    except BaseException:
        store.close()
        raise
    return store, tracker


def head_progress(path: Path, end: int, pieces: int = 256) -> ProgressTracker:
    """The training progress in bytes 0..`end` of a log file, for the chart: all of a head up
    to `PARSED_HEAD` bytes, else that many in `pieces` evenly spaced reads (whole lines only)."""
    tracker = ProgressTracker("log")
    reader = BulkReader(tracker)  # the same points as `tracker.feed`, ~25x faster (metrics CLI)
    step = PARSED_HEAD // pieces
    spots = [0] if end <= PARSED_HEAD else [end * i // pieces for i in range(pieces)]
    with path.open("rb") as f:
        for offset in spots:
            f.seek(offset)
            data = f.read(end - offset if end <= PARSED_HEAD else min(step, end - offset))
            if offset:
                data = data[data.find(b"\n") + 1 :]  # from the first whole line
            for lines in line_groups(BytesIO(data[: data.rfind(b"\n") + 1])):
                reader.feed(lines, now=0.0)
    return tracker


def _take(store: LogStore, tracker: ProgressTracker, lines: list[str], every: int) -> None:
    store.append(lines)
    tracker.feed(lines[::every] if every > 1 else lines, now=0.0)
