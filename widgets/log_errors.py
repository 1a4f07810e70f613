"""A big log's errors (the `LogHead` of log_head.py), found where the log lies: `find_errors`
runs the store's `ErrorScanner` only on lines that hold one of its trigger words (and on those
after one while its error lasts), a read at a time. `index_and_find_errors` has helper processes
do it a part each once the index is built (`python -I -S -c … main()`, this module imported
alone: standard library and log_head/log_store only), the part a helper does not finish done
by the calling thread. No Textual here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from array import array
from bisect import bisect_right
from collections.abc import Callable
from functools import partial
from pathlib import Path

from widgets.log_head import (
    READ,
    LogHead,
    assembled,
    helper_count,
    index_head,
    read_words,
    reap_helpers,
    start_helper,
)
from widgets.log_store import _TRIGGERS, ERROR_BODY, ERROR_START, ErrorScanner

_TRIGGER_BYTES = tuple(word.encode() for word in _TRIGGERS)


def find_errors(
    head: LogHead | _Bytes,
    deliver: Callable[[array, array], None],
    stop: Callable[[], bool],
    start: tuple[int, int] = (0, 0),
    until: int | None = None,
) -> None:
    """The head's error ranges as `ErrorScanner` sees them, a read at a time:
    `deliver(starts, ends)` (an error still open at a read's end is delivered with the next).
    From line `start[1]` at byte `start[0]`; with `until` (a line start), to there, and on
    while an error is still open (what it finds on the way is the next part's to find too)."""
    scanner = ErrorScanner()
    pos, number = start
    open_start = open_end = -1
    while pos < head.end and not stop():
        if until is not None and pos >= until and scanner.mode is None:
            break
        size = head.end - pos if until is None or pos >= until else until - pos
        buf = head.read(pos, min(READ, size))
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


class _Bytes:
    """The head's bytes as a helper process reads them: by the descriptor it inherited."""

    def __init__(self, fd: int, end: int) -> None:
        self.fd, self.end = fd, end

    read = LogHead.read


def index_and_find_errors(
    head: LogHead,
    deliver: Callable[[array, array], None],
    errors: Callable[[array, array], None],
    stop: Callable[[], bool],
    helpers: int | None = None,
) -> None:
    """`index_head`, then the head's errors (`find_errors`) in order: by helper processes, a
    part each from a checkpoint, for a head big enough for helpers to count it (the 8 trigger
    words' search took ~4 s of this process's GIL per GB, beside the UI and a search); what a
    helper does not finish, this thread does."""
    starts, numbers = array("Q", [0]), array("Q", [0])

    def keep(new_starts: array, new_numbers: array) -> None:
        starts.extend(new_starts)
        numbers.extend(new_numbers)
        deliver(new_starts, new_numbers)

    index_head(head, keep, stop, helpers)
    parts = helper_count(head.end) if helpers is None else helpers
    if not parts:
        find_errors(head, errors, stop)
        return
    cuts = [(0, 0)]
    for k in range(1, parts):
        j = bisect_right(starts, head.end * k // parts) - 1
        if starts[j] > cuts[-1][0]:
            cuts.append((starts[j], numbers[j]))
    _errors_by_helpers(head, cuts, errors, stop)


_ERRORS = "import sys; sys.path.insert(0, sys.argv[1]); import widgets.log_errors as e; e.main()"


def main() -> None:
    """A helper's part of `_errors_by_helpers`: argv FD START NUMBER UNTIL END; writes each
    batch as `n`, n starts, n ends, then `0`."""
    fd, start, number, until, end = (int(a) for a in sys.argv[2:7])
    out = sys.stdout.buffer

    def send(starts: array, ends: array) -> None:
        out.write(array("Q", [len(starts)]).tobytes() + starts + ends)
        out.flush()

    try:
        find_errors(_Bytes(fd, end), send, lambda: False, (start, number), until)
        out.write(array("Q", [0]).tobytes())
        out.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        os._exit(0)  # the app stopped reading: the log was closed


def _errors_by_helpers(
    head: LogHead,
    cuts: list[tuple[int, int]],
    errors: Callable[[array, array], None],
    stop: Callable[[], bool],
) -> None:
    """The errors of each part from `cuts[k]` to `cuts[k + 1]`, found by a helper each (or here,
    where it fails), delivered in order: an error is its part's when it starts before the next
    part (one open at a part's end runs on into the next), and once."""
    root = str(Path(__file__).resolve().parents[1])
    ends = [*cuts[1:], (head.end, None)]
    procs: list[subprocess.Popen | None] = []  # part k's helper, None where none started
    for (start, number), (until, _) in zip(cuts, ends, strict=True):
        argv = [sys.executable, "-I", "-S", "-c", _ERRORS, root, str(head.fd), str(start)]
        argv += [str(number), str(until), str(head.end)]
        try:
            procs.append(start_helper(argv, head.fd))
        except OSError:
            procs.append(None)
    head.helpers.extend(proc for proc in procs if proc is not None)
    last = 0  # the end of the last error delivered

    def take(starts: array, ends_: array, below: int | None) -> None:
        nonlocal last
        kept_starts, kept_ends = array("Q"), array("Q")
        for s, e in zip(starts, ends_, strict=True):
            if s >= last and (below is None or s < below):
                kept_starts.append(s)
                kept_ends.append(e)
                last = e
        if kept_starts:
            errors(kept_starts, kept_ends)

    try:
        for k, ((start, number), (_, below)) in enumerate(zip(cuts, ends, strict=True)):
            proc = procs[k]
            try:
                if proc is None:
                    raise ValueError("no helper")
                while not stop():
                    (n,) = read_words(proc.stdout, 1)
                    if not n:
                        break
                    if n > head.end:
                        raise ValueError("a helper sent garbage")
                    found = read_words(proc.stdout, n)
                    take(found, read_words(proc.stdout, n), below)
            except (OSError, ValueError):  # this part here, from its start (seen ones skipped)
                until = cuts[k + 1][0] if k + 1 < len(cuts) else None
                part = (start, number)
                find_errors(head, partial(take, below=below), stop, part, until)
            if stop():
                return
    finally:
        reap_helpers(head)


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
