"""`LogHead`: the part of a local log before its tail, read where it lies, indexed in bulk.

A finished 1 GB log opens at its end (the tail is followed into a `LogStore`); what comes before
is not copied anywhere. `index_head` has helper processes count its newlines (log_count.py: a
part each, side by side, none holding this process's GIL; the calling thread counts where none
can start) and notes a checkpoint (the byte offset and number of a line) about every 64 KB, so
any line is one small read away, and the view takes each batch of checkpoints as it comes: line
1 is there at once (the first read is 4 MB), the rest within about 0.3 s per GB on two cores.
`scan_head` searches the raw bytes (`bytes.find`, on lower-cased bytes for a case-blind query)
and numbers its hits from the index's checkpoints, counting no line the index will count; the
errors are found by log_errors.py. Each runs in a thread and hands batches over; no Textual.

A line read from here is what the `LineAssembler` would have made of it: a `\\r` progress bar
collapses to its last state, bad UTF-8 becomes U+FFFD.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from widgets.log_count import CHECKPOINT, CHECKS, FIRST_READ, TOTAL, count_read
from widgets.log_count import READ as INDEX_READ

READ = 4 << 20
"""Bytes per read while searching or finding errors."""
HELPER_PART = 64 << 20
"""Helper processes count a head from this size, each a part of at least this much."""
_COUNTER = str(Path(__file__).with_name("log_count.py"))
BLOCK_CAP = 8 << 20
"""At most this much of one block is read (a block that long is a single huge line)."""


def assembled(line: str) -> str:
    """`line` as the assembler emits it: text after a `\\r` replaces the line (its last
    non-empty state wins); a trailing `\\r` (from `\\r\\n`) is dropped."""
    if "\r" not in line:
        return line
    head, *redraws = line.split("\r")
    return next((part for part in reversed(redraws) if part), head)


class LogHead:
    """Bytes 0..`end` of a log file (`end` a line boundary), lines known as far as indexed.

    `count` and the checkpoints grow only through `take()`, on the thread that reads lines
    (the UI's), so `line(n)` for `n < count` is always answerable.
    """

    def __init__(self, path: Path | str, end: int) -> None:
        self.path = Path(path)
        self.end = end
        """Bytes in the head."""
        self.fd = os.open(self.path, os.O_RDONLY)  # kept: the log may be moved or deleted
        self.indexing = False
        """True while an index is being built (a search leaves the numbering to it)."""
        self.helpers: list[subprocess.Popen] = []
        self.starts = array("Q", [0])
        self.numbers = array("Q", [0])
        """Checkpoint i: line `numbers[i]` starts at byte `starts[i]`."""
        self.count = 0
        """Lines indexed so far (all of them once `done`)."""
        self.indexed = 0
        """Bytes indexed so far."""
        self.max_width = 0
        """The longest line read so far."""
        self._blocks: OrderedDict[int, list[str]] = OrderedDict()

    @property
    def done(self) -> bool:
        return self.indexed >= self.end

    def take(self, starts: array, numbers: array) -> int:
        """Add checkpoints found by `index_head`; how many lines that adds."""
        before = self.count
        self.starts.extend(starts)
        self.numbers.extend(numbers)
        self.count, self.indexed = self.numbers[-1], self.starts[-1]
        return self.count - before

    def line(self, number: int) -> str:
        """Line `number` (0-based, below `count`)."""
        i = bisect_right(self.numbers, number) - 1
        block = self._blocks.get(i)
        if block is None:
            block = self._read_block(i)
        else:
            self._blocks.move_to_end(i)
        k = number - self.numbers[i]
        return block[k] if k < len(block) else ""

    def read(self, offset: int, size: int) -> bytes:
        try:
            return os.pread(self.fd, size, offset)
        except OSError:
            return b""  # closed under us (the view went away)

    def read_into(self, offset: int, into: memoryview) -> int:
        """Bytes from `offset` into `into` (a reused buffer: no fresh pages per read); how many."""
        try:
            return os.preadv(self.fd, [into], offset)
        except OSError:
            return 0

    def _read_block(self, i: int) -> list[str]:
        start, end = self.starts[i], self.starts[i + 1]
        data = self.read(start, min(end - start, BLOCK_CAP))
        lines = [assembled(s) for s in data.decode("utf-8", "replace").split("\n")]
        if end - start <= BLOCK_CAP:
            lines.pop()  # after the block's last newline
        self._blocks[i] = lines
        if len(self._blocks) > 64:
            self._blocks.popitem(last=False)
        self.max_width = max(self.max_width, max(map(len, lines), default=0))
        return lines

    def close(self) -> None:
        for proc in self.helpers:
            proc.kill()
        with contextlib.suppress(OSError):
            os.close(self.fd)
        self._blocks.clear()


# ---- passes over the bytes, each in a thread ------------------------------------------------


def index_head(
    head: LogHead,
    deliver: Callable[[array, array], None],
    stop: Callable[[], bool],
    helpers: int | None = None,
) -> None:
    """Count `head`'s lines from byte 0, calling `deliver(starts, numbers)` with checkpoints in
    order as they are counted. Reads only; `head.take` applies. `helpers`: how many helper
    processes count (default: one per CPU up to 4, none for a head under `HELPER_PART`); what
    they do not finish, for whatever reason, this thread counts."""
    head.indexing = True
    try:
        parts = helper_count(head.end) if helpers is None else helpers
        pos, total = _index_by_helpers(head, parts, deliver, stop) if parts else (0, 0)
        buf = bytearray(INDEX_READ)
        view = memoryview(buf)
        while pos < head.end and not stop():
            n = head.read_into(pos, view[: min(INDEX_READ if pos else FIRST_READ, head.end - pos)])
            if not n:
                return
            starts, numbers = array("Q"), array("Q")
            total = count_read(buf, n, pos, total, starts, numbers)
            pos += n
            if starts:
                deliver(starts, numbers)
    finally:
        head.indexing = False


def helper_count(size: int) -> int:
    """How many helper processes count a head of `size` bytes (0: the calling thread does)."""
    if size < HELPER_PART or not sys.executable:
        return 0
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus, size // HELPER_PART))


def _index_by_helpers(
    head: LogHead, parts: int, deliver: Callable[[array, array], None], stop: Callable[[], bool]
) -> tuple[int, int]:
    """Have `parts` helper processes count the head a part each (log_count.py), delivering part
    0's checkpoints as they come and each later part's with the lines before it added. Where the
    count got to (a line start and its number): the head's end unless a helper failed. This
    thread counts the first read itself before they start: line 1 at once."""
    bounds = [0, *(head.end * k // parts // CHECKPOINT * CHECKPOINT for k in range(1, parts))]
    bounds.append(head.end)
    at, base = (0, 0), 0
    try:
        buf = bytearray(FIRST_READ)
        starts, numbers = array("Q"), array("Q")
        first = head.read_into(0, memoryview(buf)[: min(FIRST_READ, head.end)])
        count_read(buf, first, 0, 0, starts, numbers)
        if starts:
            deliver(starts, numbers)
            at = (starts[-1], numbers[-1])
        for k in range(parts):
            argv = [sys.executable, "-I", "-S", _COUNTER, str(head.fd), str(bounds[k])]
            argv += [str(bounds[k + 1]), "1" if k == 0 else "0"]
            head.helpers.append(start_helper(argv, head.fd))
        for k, proc in enumerate(head.helpers):
            most = (bounds[k + 1] - bounds[k]) // CHECKPOINT + 2  # checkpoints a part can have
            while not stop():
                kind, n = read_words(proc.stdout, 2)
                if kind == TOTAL:
                    base += n
                    break
                if kind != CHECKS or not 0 < n <= most:
                    raise ValueError(f"helper {k} sent {kind} {n}")
                starts, numbers = read_words(proc.stdout, n), read_words(proc.stdout, n)
                if k == 0 and starts[0] <= at[0]:  # counted here already
                    skip = bisect_right(starts, at[0])
                    starts, numbers = starts[skip:], numbers[skip:]
                    if not starts:
                        continue
                if base:
                    numbers = array("Q", (number + base for number in numbers))
                deliver(starts, numbers)
                at = (starts[-1], numbers[-1])
            else:
                return at
        return head.end, base
    except (OSError, ValueError):
        return at  # a helper could not start or stopped: the thread counts on from here
    finally:
        reap_helpers(head)


def read_words(stream, n: int) -> array:
    """`n` unsigned 64-bit words from a helper's output."""
    data = stream.read(8 * n)
    if len(data) != 8 * n:
        raise ValueError("a helper stopped early")
    return array("Q", data)


def needle_for(query: str) -> tuple[bytes, bool] | None:
    """What to look for in raw bytes for a smart-case query: (bytes, lower-case the haystack
    first); None when only decoded text can answer (a case-blind query with non-ASCII)."""
    if any(c.isupper() for c in query):
        return query.encode("utf-8"), False
    if query.isascii():
        return query.encode("ascii"), True
    return None


def scan_head(
    head: LogHead,
    query: str,
    matches: Callable[[str], bool],
    deliver: Callable[[array, int], None],
    stop: Callable[[], bool] = lambda: False,
) -> None:
    """The numbers of the head's lines that hold `query`, a read at a time:
    `deliver(numbers, bytes_scanned)`. `matches(text)` is the view's own test, asked only of
    lines whose shown text may differ from their bytes (a `\\r` in them) or with no needle.
    A read's hits are counted from its first line, whose number the index gives once it has got
    there (while it is being built, this waits for it rather than counting the same lines)."""
    found = needle_for(query)
    buf = bytearray(READ)  # one buffer for every read: no fresh pages each time
    view = memoryview(buf)
    pos = 0
    waiting: list[tuple[int, array]] = []  # (a read's first byte, its hits counted from there)
    while pos < head.end and not stop():
        n = head.read_into(pos, view[: min(READ, head.end - pos)])
        if not n:
            return
        cut = buf.rfind(b"\n", 0, n) + 1 or n
        lines = array("Q")
        if found is None:
            text = buf[:cut].decode("utf-8", "replace").split("\n")
            lines.extend(i for i, s in enumerate(text) if matches(assembled(s)))
        else:
            needle, fold = found
            hay = buf[:cut].lower() if fold else buf
            find, count = hay.find, hay.count
            i, counted, number = find(needle, 0, cut), 0, 0
            while i >= 0:
                number += count(b"\n", counted, i)
                counted = i
                first = hay.rfind(b"\n", 0, i) + 1
                last = hay.find(b"\n", i, cut)
                last = cut if last < 0 else last
                line = buf[first:last]
                if b"\r" not in line or matches(assembled(line.decode("utf-8", "replace"))):
                    lines.append(number)
                i = find(needle, last + 1, cut) if last < cut else -1
        if lines:
            waiting.append((pos, lines))
        pos += cut
        _number(head, waiting, deliver, pos)
    while waiting and head.indexing and not stop():
        time.sleep(0.005)
        _number(head, waiting, deliver, pos)
    _number(head, waiting, deliver, pos, count=True)


def _number(
    head: LogHead,
    waiting: list[tuple[int, array]],
    deliver: Callable[[array, int], None],
    scanned: int,
    count: bool = False,
) -> None:
    """Deliver the waiting hits the index has reached (all of them when `count`: the lines the
    index has not reached are counted here), in order; `scanned` bytes have been searched."""
    numbers = array("Q")
    while waiting and (count or waiting[0][0] <= head.indexed):
        at, lines = waiting.pop(0)
        base = _line_at(head, at)
        numbers.extend(base + k for k in lines)
    deliver(numbers, scanned)


def _line_at(head: LogHead, offset: int) -> int:
    """The number of the line that holds byte `offset`, from the index's
    nearest checkpoint before it and the newlines between. Another thread's `take()` may be
    adding checkpoints meanwhile: those it has finished are those below `indexed`, set last."""
    indexed = head.indexed
    j = bisect_right(head.starts, min(offset, indexed)) - 1
    at, number = head.starts[j], head.numbers[j]
    while at < offset:
        buf = head.read(at, min(READ, offset - at))
        if not buf:
            break
        number += buf.count(b"\n")
        at += len(buf)
    return number


def start_helper(argv: list[str], fd: int) -> subprocess.Popen:
    return subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        pass_fds=(fd,),
    )


def reap_helpers(head: LogHead) -> None:
    for proc in head.helpers:
        proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    head.helpers.clear()
