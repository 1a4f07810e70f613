"""The lines behind `LogView`: the newest in memory, every one on disk, the errors marked.

A followed log can grow to gigabytes. `LogStore` keeps the last `window` lines in a list and
writes every line to a spool file (a temporary file in the cache dir, deleted by `close()`),
remembering the byte offset of every `BLOCK`-th line, so any old line is one seek and one small
read away. Search, filter and save read the spool, so they see lines the window has dropped.

Errors are recognised as lines arrive (`ErrorScanner`): Python tracebacks from their first line
to the exception line, `ERROR`, `NCCL WARN`, CUDA out of memory, collective timeouts,
`RendezvousTimeoutError` and a launcher's framed failure summary. Each is kept as a range of lines.
No Textual here: the view draws what this holds.
"""

from __future__ import annotations

import contextlib
import os
import re
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from widgets.log_spools import forget, new_spool, remove_stale, spool_dir

if TYPE_CHECKING:
    from widgets.log_head import LogHead

BLOCK = 256
"""Lines per spool index entry: 10M lines cost a 312 KB index and a read of ~25 KB per block."""
SCAN_CHUNK = 4 << 20

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_PREFIX = re.compile(r"\[[^\]\s]{1,40}\]:? ?")  # `[rank1]: ` as torch prefixes worker output
_ERROR_WORDS = (
    r"\bERROR\b|NCCL WARN|CUDA out of memory|OutOfMemoryError"
    r"|Watchdog caught collective operation timeout|RendezvousTimeoutError|ChildFailedError"
    r"|Root Cause \(first observed failure\)"
)
_LINE_ERROR = re.compile(_ERROR_WORDS + r"|^[\w.]*(?:Error|Exception):")
_TRIGGERS = (
    "ERROR",
    "Error",  # ValueError:, OutOfMemoryError, RendezvousTimeoutError, ChildFailedError, …
    "Exception",
    "NCCL WARN",
    "out of memory",
    "Watchdog caught",
    "Root Cause",
    "Traceback",
)
"""Every error starts on a line holding one of these words. Substring tests are ~30× faster
than the regex, so most text is cleared without it (each batch is scanned once per word)."""

PLAIN, ERROR_START, ERROR_BODY = 0, 1, 2
FRAME_LINES = 256
"""A launcher's summary frame ends at its closing `====` or after this many lines (the elastic
launcher lists each failed local rank in ~7 lines; a pasted log cut inside its frame held one
open over 31,000 lines of the next log)."""


def strip_ansi(text: str) -> str:
    """`text` without terminal escape sequences (colours, cursor moves)."""
    return _ANSI.sub("", text) if "\x1b" in text else text


def compile_query(query: str) -> re.Pattern[str]:
    """A literal search, case-insensitive unless the query has a capital letter (smart case)."""
    return re.compile(re.escape(query), 0 if any(c.isupper() for c in query) else re.IGNORECASE)


class ErrorScanner:
    """Says, line by line, whether a line starts an error, continues one, or is plain.

    A traceback runs from `Traceback (most recent call last):` through its indented lines to
    the exception line; when that is a launcher's `ChildFailedError`, the `====` framed summary
    after it ("Root Cause (first observed failure)") belongs to it too.
    """

    def __init__(self) -> None:
        self.mode: str | None = None
        """None between errors; "traceback", "summary?" (a frame may follow), "summary"."""
        self.framed = 0
        """Lines of the summary's frame so far."""

    def classify(self, line: str) -> int:
        body = strip_ansi(line)
        if m := _PREFIX.match(body):
            body = body[m.end() :]
        mode = self.mode
        if mode == "traceback":
            if body[:1] in (" ", "\t"):
                return ERROR_BODY
            if not body.strip():
                self.mode = None
                return PLAIN
            self.mode = "summary?" if "ChildFailedError" in body else None
            return ERROR_BODY  # the exception line closes the traceback
        if mode == "summary":
            self.framed += 1
            if body.startswith("====") or self.framed >= FRAME_LINES:
                self.mode = None  # (a frame cut off where a log was pasted: not on for ever)
            return ERROR_BODY
        if mode == "summary?":
            self.mode = None
            if body.startswith("===="):
                self.mode, self.framed = "summary", 0
                return ERROR_BODY
        if "Traceback (most recent call last)" in body:
            self.mode = "traceback"
            return ERROR_START
        if _LINE_ERROR.search(body):
            if "ChildFailedError" in body:
                self.mode = "summary?"
            return ERROR_START
        return PLAIN


class LineSet:
    """The numbers of the lines that match `pattern`: from the spool, then as lines arrive."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.pattern = compile_query(query)
        self.lines = array("Q")
        self.complete = False
        """False while the spool is still being scanned (lines arriving meanwhile are kept)."""
        self._pending = array("Q")
        self.held = array("Q")
        """Matches in the log's head past its index so far; they join `lines` as it grows."""
        self.progress = 0.0
        """How much of the head has been searched, 0 to 1, while not `complete`."""

    def add(self, numbers: Sequence[int]) -> None:
        (self.lines if self.complete else self._pending).extend(numbers)

    def scanned(self, found: array) -> None:
        """The spool scan's result; lines matched while it ran follow it."""
        found.extend(self._pending)
        self.lines, self._pending, self.complete = found, array("Q"), True


class LogStore:
    """Every line of one log: `window` newest in memory, all of them in a spool file.

    Lines hold no newline (they come from `LineAssembler`). `line(n)` returns any line by its
    number from 0; `close()` deletes the spool.
    """

    def __init__(self, window: int = 50_000, directory: Path | None = None) -> None:
        self.window = max(1, window)
        self.count = 0
        """Lines so far."""
        self.max_width = 0
        """The longest line's length, for the horizontal scroll range."""
        self.error_starts = array("Q")
        self.error_ends = array("Q")
        """Error i covers lines `error_starts[i]` up to (not including) `error_ends[i]`."""
        self.search: LineSet | None = None
        self.filter: LineSet | None = None
        self._lines: list[str] = []
        self._first = 0  # the number of self._lines[0]
        self._index = array("Q")  # byte offset of line k * BLOCK
        self._size = 0
        self._dirty = False
        self._blocks: OrderedDict[int, list[str]] = OrderedDict()
        self._scanner = ErrorScanner()
        self.head: LogHead | None = None
        """The log before the first spooled line, read where it lies (`attach_head`)."""
        self.head_lines = 0
        """Lines of the head indexed so far: the spool's lines are numbered after them."""
        self.closed = False
        """True once `close()` deleted the spool."""
        folder = directory or spool_dir()
        folder.mkdir(parents=True, exist_ok=True)
        remove_stale(folder)
        self.path, fd = new_spool(folder)  # deleted however this process ends
        """The spool file; it holds every line so far, each followed by a newline."""
        self._file = os.fdopen(fd, "wb")
        self._reader = self.path.open("rb")

    @property
    def size(self) -> int:
        """Bytes in the spool."""
        return self._size

    @property
    def first_in_memory(self) -> int:
        return self._first

    # ---- adding -------------------------------------------------------------------------

    def append(self, lines: Sequence[str]) -> None:
        """Add a batch: spool it (in block-aligned pieces), mark errors and matches."""
        if not lines:
            return
        start, shift = self.count - self.head_lines, self.head_lines  # spool-own numbers
        pos, n = 0, len(lines)
        while pos < n:
            number = start + pos
            if number % BLOCK == 0:
                self._index.append(self._size)
            end = min(n, pos + BLOCK - number % BLOCK)
            piece = lines[pos:end]
            text = "\n".join(piece)
            data = (text + "\n").encode("utf-8", "replace")
            self._file.write(data)
            self._size += len(data)
            if self._scanner.mode is not None or _has_trigger(text):
                self._mark_errors(piece, shift + number)
            for found in (self.search, self.filter):
                if found is not None and found.pattern.search(text):
                    first = shift + number
                    found.add([first + i for i, s in enumerate(piece) if found.pattern.search(s)])
            pos = end
        self._dirty = True
        self.count += n
        self.max_width = max(self.max_width, max(map(len, lines)))
        self._lines.extend(lines)
        if len(self._lines) > self.window + self.window // 4:
            drop = len(self._lines) - self.window
            del self._lines[:drop]  # in steps, so trimming costs O(1) per line
            self._first += drop

    def _mark_errors(self, lines: Sequence[str], first: int) -> None:
        scanner = self._scanner
        for i, line in enumerate(lines):
            if scanner.mode is None and not _has_trigger(line):
                continue
            kind = scanner.classify(line)
            if kind == ERROR_START:
                self.error_starts.append(first + i)
                self.error_ends.append(first + i + 1)
            elif kind == ERROR_BODY and self.error_ends:
                self.error_ends[-1] = first + i + 1

    # ---- reading ------------------------------------------------------------------------

    def line(self, number: int) -> str:
        """Line `number` (0-based), from memory or from the spool."""
        if number >= self._first:
            return self._lines[number - self._first]
        if number < self.head_lines and self.head is not None:
            text = self.head.line(number)
            self.max_width = max(self.max_width, len(text))
            return text
        number -= self.head_lines
        block = self._block(number // BLOCK)
        return block[number % BLOCK]

    def error_kind(self, number: int) -> int:
        """PLAIN, ERROR_START (the line an error begins on) or ERROR_BODY."""
        i = bisect_right(self.error_starts, number) - 1
        if i < 0 or number >= self.error_ends[i]:
            return PLAIN
        return ERROR_START if self.error_starts[i] == number else ERROR_BODY

    # ---- the head: the log before the spool, indexed in bulk (log_head.py) -----------------

    def attach_head(self, head: LogHead) -> None:
        """Put `head` before the spooled lines; its lines count as `head_grew` reports them."""
        self.head = head

    def head_grew(self, lines: int) -> None:
        """The head's index gained `lines` lines: they come before the spooled ones, so every
        line number past the old head moves on by that much."""
        old = self.head_lines
        self.head_lines += lines
        self.count += lines
        self._first += lines
        self.error_starts = _shifted(self.error_starts, old, lines)
        self.error_ends = _shifted(self.error_ends, old + 1, lines)
        for found in (self.search, self.filter):
            if found is not None:
                found.lines = _shifted(found.lines, old, lines)
                found._pending = _shifted(found._pending, old, lines)

    def head_errors(self, starts: Sequence[int], ends: Sequence[int]) -> None:
        """Errors found in the head (numbers below `head_lines`), before the spool's."""
        i = bisect_right(self.error_starts, starts[0] - 1) if starts else 0
        self.error_starts[i:i] = array("Q", starts)
        self.error_ends[i:i] = array("Q", ends)

    def _block(self, b: int) -> list[str]:
        cached = self._blocks.get(b)
        if cached is not None:
            self._blocks.move_to_end(b)
            return cached
        self.flush()
        start = self._index[b]
        end = self._index[b + 1] if b + 1 < len(self._index) else self._size
        self._reader.seek(start)
        lines = self._reader.read(end - start).decode("utf-8", "replace").split("\n")[:-1]
        self._blocks[b] = lines
        if len(self._blocks) > 64:
            self._blocks.popitem(last=False)
        return lines

    def flush(self) -> None:
        if self._dirty:
            self._file.flush()
            self._dirty = False

    # ---- search, save -------------------------------------------------------------------

    def scan(self, pattern: re.Pattern[str], size: int) -> array:
        """The numbers of the lines among the spool's first `size` bytes that match.

        Reads the spool with its own handle, so it may run in a thread while lines arrive
        (call `flush()` first, and pass `size` as it was then).
        """
        found = array("Q")
        number = 0
        carry = b""
        with self.path.open("rb") as f:
            remaining = size
            while remaining > 0:
                chunk = f.read(min(SCAN_CHUNK, remaining))
                if not chunk:
                    break
                remaining -= len(chunk)
                buf = carry + chunk
                cut = buf.rfind(b"\n") + 1
                carry, buf = buf[cut:], buf[:cut]
                text = buf.decode("utf-8", "replace")
                number = _matching_lines(pattern, text, number, found)
        return found

    def save(self, path: Path, size: int, partial: str = "") -> int:
        """Copy the spool's first `size` bytes and the unfinished line to `path`; bytes written.

        Safe in a thread while lines arrive (call `flush()` first and pass `size` as it was).
        """
        with self.path.open("rb") as src, Path(path).open("wb") as dst:
            head = self.head  # the log before the spool, as it lies on disk
            for offset in range(0, head.end if head else 0, SCAN_CHUNK):
                dst.write(head.read(offset, min(SCAN_CHUNK, head.end - offset)))
            remaining = size
            size += head.end if head else 0
            while remaining > 0:
                chunk = src.read(min(SCAN_CHUNK, remaining))
                if not chunk:
                    break
                dst.write(chunk)
                remaining -= len(chunk)
            if partial:
                tail = (partial + "\n").encode("utf-8", "replace")
                dst.write(tail)
                size += len(tail)
        return size

    def close(self) -> None:
        """Delete the spool; the store is empty and unusable afterwards."""
        for f in (self._file, self._reader):
            with contextlib.suppress(OSError):
                f.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        forget(self.path)
        if self.head is not None:
            self.head.close()
        self._lines, self._blocks = [], OrderedDict()
        self.closed = True


def _shifted(numbers: array, at: int, by: int) -> array:
    """`numbers` (sorted) with those from `at` on moved on by `by`."""
    if not by or not numbers or numbers[-1] < at:
        return numbers
    i = bisect_right(numbers, at - 1)
    return numbers[:i] + array("Q", (n + by for n in numbers[i:]))


def _has_trigger(text: str) -> bool:
    text = strip_ansi(text)
    return any(word in text for word in _TRIGGERS)


def _matching_lines(pattern: re.Pattern[str], text: str, number: int, found: array) -> int:
    """Append the numbers of `text`'s matching lines (counting from `number`); the next number."""
    pos, counted_to = 0, 0
    search, count = pattern.search, text.count
    while (m := search(text, pos)) is not None:
        number += count("\n", counted_to, m.start())
        counted_to = m.start()
        found.append(number)
        pos = text.find("\n", m.start())
        if pos < 0:
            break
        pos += 1
    return number + count("\n", counted_to)
