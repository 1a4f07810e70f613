"""Splitting a per-node launcher's output into one log per rank, and reading launchers' verdicts.

The launcher, started with its `split_env` (`tui.frameworks`), copies every worker line to its
own stdout/stderr behind a header that carries the *global* rank (`MARKER_TEMPLATE`). Each header
starts one write of the launcher's log tailer: the rest of a line, or a partial line at the end
of what the worker had written. So the stream is cut at every header and at every newline; bytes
after a header go to that rank's log up to the next newline or header, bytes outside any header
(the launcher's own messages) to the node's default log. Partial lines are completed by the next
chunk with the same rank. A launcher's failure summary is read with its own `root_cause` regex.
Stdlib only: the supervisor imports this.
"""

from __future__ import annotations

import errno
import re
from collections import deque
from pathlib import Path
from typing import BinaryIO

MARKER_TEMPLATE = "[dtrain-tui rank ${rank}] "
"""The launcher substitutes ${rank} (the global rank) and writes this before every worker line."""
MARKER = re.compile(rb"\[dtrain-tui rank (\d+)\] ")
_MARKER_HEAD = b"[dtrain-tui rank "
_MARKER_END = re.compile(rb"\[dtrain-tui rank \d*\]?\Z")


def _marker_start_at_end(buf: bytes) -> int | None:
    """Where a header that the next read may complete begins at the end of `buf`, if one does."""
    at = buf.rfind(b"[", max(0, len(buf) - len(_MARKER_HEAD) - 24))
    if at < 0:
        return None
    tail = buf[at:]
    if _MARKER_HEAD.startswith(tail) or _MARKER_END.match(tail):
        return at
    return None


class StreamRouter:
    """Reads a growing launcher stream from `source` and appends each rank's bytes to its log."""

    def __init__(self, source: Path, rank_logs: dict[int, Path], default: Path) -> None:
        self.source = source
        self.rank_logs = rank_logs
        self.default = default
        self._offset = 0
        self._held = b""
        self._current: int | None = None
        self._launcher_tail: deque[bytes] = deque(maxlen=400)
        self._open: dict[Path, BinaryIO] = {}

    def pump(self, final: bool = False) -> int:
        """Route whatever was appended since the last call; `final` flushes held-back bytes."""
        try:
            with self.source.open("rb") as f:
                f.seek(self._offset)
                data = f.read()
        except FileNotFoundError:
            data = b""
        self._offset += len(data)
        buf = self._held + data
        self._held = b""
        if not final:
            cut = _marker_start_at_end(buf)
            if cut is not None:
                self._held, buf = buf[cut:], buf[:cut]
        out: dict[Path, list[bytes]] = {}
        for target, chunk in self.split(buf):
            out.setdefault(target, []).append(chunk)
        for target, chunks in out.items():
            self._write(target, b"".join(chunks))
        if final:
            self.close()
        return len(data)

    def _write(self, target: Path, data: bytes) -> None:
        """Append to a log through the file opened for it at its first write, as a process
        writes its own stdout: a log deleted or renamed over while the job runs is written on
        (and followed on: `FileSource`), never recreated empty beside the one being read."""
        f = self._open.get(target)
        if f is None:
            try:
                f = self._open[target] = target.open("ab", buffering=0)
            except OSError as err:
                if err.errno != errno.EMFILE:
                    raise
                with target.open("ab") as once:  # out of descriptors: by its name this time
                    once.write(data)
                return
        f.write(data)

    def close(self) -> None:
        """Close the logs this router writes."""
        for f in self._open.values():
            f.close()
        self._open.clear()

    def split(self, buf: bytes) -> list[tuple[Path, bytes]]:
        """`buf` cut into (log, bytes) pieces; keeps the rank of an unfinished line for later."""
        pieces: list[tuple[Path, bytes]] = []
        pos = 0
        while pos < len(buf):
            match = MARKER.search(buf, pos)
            stop = match.start() if match else len(buf)
            if self._current is None:
                if stop > pos:
                    text = buf[pos:stop]
                    pieces.append((self.default, text))
                    self._launcher_tail.extend(text.splitlines(keepends=True))
                if match is None:
                    break
                self._current = int(match.group(1))
                pos = match.end()
                continue
            newline = buf.find(b"\n", pos, stop)
            end = newline + 1 if newline >= 0 else stop
            target = self.rank_logs.get(self._current, self.default)
            if end > pos:
                pieces.append((target, buf[pos:end]))
            if newline >= 0:
                self._current = None
            elif match is not None:
                self._current = int(match.group(1))
                end = match.end()
            pos = end
        return pieces

    def launcher_text(self) -> str:
        """The launcher's own recent lines (not its workers'), for its failure summary."""
        return b"".join(self._launcher_tail).decode("utf-8", "replace")


_MPI_FAILURE = re.compile(r"Process name:\s*\[.*?,(\d+)\]\s*\n\s*Exit code:\s*(-?\d+)")


def root_cause(pattern: str | None, text: str) -> tuple[int, int] | None:
    """(global rank, exit code) from a launcher's failure summary, if `text` holds one
    (`pattern`: the launcher's `root_cause` regex; None when it has none)."""
    match = re.search(pattern, text, re.S) if pattern else None
    return (int(match.group(1)), int(match.group(2))) if match else None


def mpirun_first_failure(text: str) -> tuple[int, int] | None:
    """(world rank, exit code) of the first process Open MPI saw fail, if `text` says."""
    match = _MPI_FAILURE.search(text)
    return (int(match.group(1)), int(match.group(2))) if match else None
