"""Counting a big log's lines in helper processes.

`python -I -S log_count.py FD START END STREAM` counts the newlines of bytes START..END of
the open file FD (inherited) and writes to stdout, as unsigned 64-bit words:
  - `CHECKS n` then n line starts and n line numbers (each counted from START): a checkpoint
    about every `CHECKPOINT` bytes, every `SEND` bytes when STREAM is 1, else all at once at
    the end (a pipe holds 64 KB: a part read later must not wait on its reader while it counts);
  - `TOTAL lines`: the newlines in START..END.

Stdlib only, no imports from the app: the helper starts in about 15 ms. A helper counts at
about 2 GB/s without holding the app's GIL, and several count a log's parts side by side (the
app's own thread held the GIL a second per GB, against the UI and a search). `count_read` is
also what the app's thread runs where no helper can start.
"""

from __future__ import annotations

import os
import sys
from array import array

CHECKPOINT = 64 << 10
"""About this many bytes between checkpoints: a line is found by reading one such block."""
FIRST_READ = 4 << 20
"""The app's first read: line 1 is known at once."""
READ = 16 << 20
"""Bytes per read in the app's own thread: few reads, so few waits for the GIL after each (a
read lets go of it, and taking it back from a busy UI thread can take 5 ms)."""
HELPER_READ = 1 << 20
"""Bytes per read in a helper: the bytes are still in the core's cache when counted (16 MB
reads took 0.12-0.48 s per GB to copy, 1 MB reads 0.1 s, and the count was no slower)."""
SEND = 16 << 20
"""A streaming helper sends its checkpoints after about this many bytes."""
CHECKS, TOTAL = 1, 2


def count_read(buf: bytearray, n: int, pos: int, total: int, starts: array, numbers: array) -> int:
    """Count the newlines of `buf[:n]` (the file's bytes from `pos`, a multiple of `CHECKPOINT`
    from the part's start) after `total` before them; append a checkpoint for each block's
    last line start. The new total."""
    count, rfind = buf.count, buf.rfind
    for s in range(0, n, CHECKPOINT):
        e = min(s + CHECKPOINT, n)
        total += count(b"\n", s, e)
        cut = rfind(b"\n", s, e)
        if cut >= 0:
            starts.append(pos + cut + 1)
            numbers.append(total)
    return total


def main(argv: list[str]) -> None:
    fd, start, end, stream = (int(a) for a in argv)
    out = sys.stdout.buffer
    buf = bytearray(HELPER_READ)
    view = memoryview(buf)
    pos, total, sent = start, 0, start
    starts, numbers = array("Q"), array("Q")
    while pos < end:
        n = os.preadv(fd, [view[: min(HELPER_READ, end - pos)]], pos)
        if not n:
            break
        total = count_read(buf, n, pos, total, starts, numbers)
        pos += n
        if starts and (pos >= end or (stream and pos - sent >= SEND)):
            out.write(array("Q", [CHECKS, len(starts)]).tobytes() + starts + numbers)
            out.flush()
            starts, numbers, sent = array("Q"), array("Q"), pos
    out.write(array("Q", [TOTAL, total]).tobytes())
    out.flush()


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except (BrokenPipeError, KeyboardInterrupt):  # the app stopped reading: the log was closed
        os._exit(0)
