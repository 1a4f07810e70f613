"""`LogHead`: the part of a local log before its tail, read where it lies, indexed in bulk.

A finished 1 GB log opens at its end (the tail is followed into a `LogStore`); what comes before
is not copied anywhere. `index_head` counts its newlines with `bytes.count` a 16 MB read at a
time into one reused buffer (no line is decoded, no fresh pages per read) and notes a checkpoint
(the byte offset and number of a line) about every 64 KB, so any line is one small read away,
and the view takes each batch of checkpoints as it comes: line 1 is there at once (the first
read is 4 MB), the rest within about a second per GB. `scan_head` searches the raw bytes the
same way (`bytes.find`, on lower-cased bytes for a case-blind query), and `find_errors` runs the
store's `ErrorScanner` only on lines that hold one of its trigger words. Each runs in a thread
and hands batches over; no Textual here.

A line read from here is what the `LineAssembler` would have made of it: a `\\r` progress bar
collapses to its last state, bad UTF-8 becomes U+FFFD.
"""

from __future__ import annotations

import contextlib
import os
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from widgets.log_store import _TRIGGERS, ERROR_BODY, ERROR_START, ErrorScanner

READ = 4 << 20
"""Bytes per read while searching or finding errors."""
INDEX_READ = 16 << 20
"""Bytes per read while indexing: few reads, so few waits for the GIL after each (a read lets go
of it, and taking it back from a busy UI thread can take Python's 5 ms switch interval)."""
CHECKPOINT = 64 << 10
"""About this many bytes between checkpoints: a line is found by reading one such block."""
BLOCK_CAP = 8 << 20
"""At most this much of one block is read (a block that long is a single huge line)."""
_TRIGGER_BYTES = tuple(word.encode() for word in _TRIGGERS)


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
        self._fd = os.open(self.path, os.O_RDONLY)  # kept: the log may be moved or deleted
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
            return os.pread(self._fd, size, offset)
        except OSError:
            return b""  # closed under us (the view went away)

    def read_into(self, offset: int, into: memoryview) -> int:
        """Bytes from `offset` into `into` (a reused buffer: no fresh pages per read); how many."""
        try:
            return os.preadv(self._fd, [into], offset)
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
        with contextlib.suppress(OSError):
            os.close(self._fd)
        self._blocks.clear()


# ---- passes over the bytes, each in a thread ------------------------------------------------


def index_head(
    head: LogHead, deliver: Callable[[array, array], None], stop: Callable[[], bool]
) -> None:
    """Count `head`'s lines from byte 0, calling `deliver(starts, numbers)` with each read's
    checkpoints (the last at the read's last line start). Reads only; `head.take` applies."""
    buf = bytearray(INDEX_READ)
    view = memoryview(buf)
    count, rfind = buf.count, buf.rfind
    pos, total = 0, 0
    while pos < head.end and not stop():
        n = head.read_into(pos, view[: min(INDEX_READ if pos else READ, head.end - pos)])
        if not n:
            return
        starts, numbers = array("Q"), array("Q")
        for s in range(0, n, CHECKPOINT):
            e = min(s + CHECKPOINT, n)
            total += count(b"\n", s, e)
            cut = rfind(b"\n", s, e)
            if cut >= 0:
                starts.append(pos + cut + 1)
                numbers.append(total)
        pos += n
        if starts:
            deliver(starts, numbers)


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
    lines whose shown text may differ from their bytes (a `\\r` in them) or with no needle."""
    found = needle_for(query)
    buf = bytearray(READ)  # one buffer for every read: no fresh pages each time
    view = memoryview(buf)
    pos, number = 0, 0  # number: the line at `pos`; None where the index can tell it later
    while pos < head.end and not stop():
        n = head.read_into(pos, view[: min(READ, head.end - pos)])
        if not n:
            return
        cut = buf.rfind(b"\n", 0, n) + 1 or n
        numbers = array("Q")
        if found is None:
            number = _line_at(head, pos) if number is None else number
            text = buf[:cut].decode("utf-8", "replace").split("\n")
            numbers.extend(number + i for i, s in enumerate(text) if matches(assembled(s)))
            number += buf.count(b"\n", 0, cut)
        else:
            needle, fold = found
            hay = buf[:cut].lower() if fold else buf
            find, count = hay.find, hay.count
            i, counted = find(needle, 0, cut), 0
            while i >= 0:
                if number is None:
                    number = _line_at(head, pos)
                number += count(b"\n", counted, i)
                counted = i
                first = hay.rfind(b"\n", 0, i) + 1
                last = hay.find(b"\n", i, cut)
                last = cut if last < 0 else last
                line = buf[first:last]
                if b"\r" not in line or matches(assembled(line.decode("utf-8", "replace"))):
                    numbers.append(number)
                i = find(needle, last + 1, cut) if last < cut else -1
            if number is not None and head.indexed < pos + cut:
                number += count(b"\n", counted, cut)
            else:  # the index has numbered these bytes: no need to count them twice
                number = None
        pos += cut
        deliver(numbers, pos)


def _line_at(head: LogHead, offset: int) -> int:
    """The number of the line starting at byte `offset` (a line start), from the index's
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


def find_errors(
    head: LogHead, deliver: Callable[[array, array], None], stop: Callable[[], bool]
) -> None:
    """The head's error ranges as `ErrorScanner` sees them, a read at a time:
    `deliver(starts, ends)` (an error still open at a read's end is delivered with the next)."""
    scanner = ErrorScanner()
    pos, number = 0, 0
    open_start = open_end = -1
    while pos < head.end and not stop():
        buf = head.read(pos, min(READ, head.end - pos))
        if not buf:
            return
        cut = buf.rfind(b"\n") + 1 or len(buf)
        chunk = buf[:cut]
        pos += cut
        starts, ends = array("Q"), array("Q")
        if open_start >= 0 or any(word in chunk for word in _TRIGGER_BYTES):
            lines = chunk.decode("utf-8", "replace").split("\n")[:-1]
            classified = 0  # lines before this one have been classified
            for k in _candidate_lines(chunk, scanner.mode is not None):
                if k < classified:
                    continue
                while k < len(lines):
                    kind = scanner.classify(assembled(lines[k]))
                    if kind == ERROR_START:
                        if open_start >= 0:
                            starts.append(open_start)
                            ends.append(open_end)
                        open_start, open_end = number + k, number + k + 1
                    elif kind == ERROR_BODY and open_start >= 0:
                        open_end = number + k + 1
                    k += 1
                    if scanner.mode is None:
                        break
                classified = k
            number += len(lines)
        else:
            number += chunk.count(b"\n")
        if open_start >= 0 and scanner.mode is None:
            starts.append(open_start)
            ends.append(open_end)
            open_start = -1
        if starts:
            deliver(starts, ends)
    if open_start >= 0:
        deliver(array("Q", [open_start]), array("Q", [open_end]))


def _candidate_lines(chunk: bytes, from_first: bool):
    """The indexes of `chunk`'s lines that hold a trigger word, in order (0 first when an
    error is still open), each once; lines after one are classified while its error lasts."""
    hits = {0} if from_first else set()
    for word in _TRIGGER_BYTES:
        i = chunk.find(word)
        while i >= 0:
            hits.add(i)
            i = chunk.find(word, chunk.find(b"\n", i) + 1 or len(chunk))
    done, line, pos = -1, 0, 0
    for i in sorted(hits):
        line += chunk.count(b"\n", pos, i)
        pos = i
        if line > done:
            done = line
            yield line
