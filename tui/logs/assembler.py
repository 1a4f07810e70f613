"""Bytes in, complete lines out: the part of following a log that ignores how reads split it."""

from __future__ import annotations

import codecs
import re

from tui.logs.progress_fields import GLUED_BAR

_BAR_STATE = re.compile(r"[^\n|]{0,120}?(?:" + GLUED_BAR.pattern + ")")
"""A tqdm bar's state leading a line, another write glued after it (`desc: 40%|██  | 2/5
[00:01<00:01, 2.0it/s]epoch 0 …`): the progress parser's glued bar, after its description."""


class LineAssembler:
    """Turns log bytes, in reads of any size, into complete lines of text.

    - A line ends at `\\n` (`\\r\\n` counts as one break); the text without the break is emitted.
      A partial last line waits for its newline; `flush()` emits it when the log is finished.
    - A lone `\\r` (a tqdm progress bar redrawing itself) starts the line over: only the line's
      final state is emitted, and `partial` shows the state so far so a UI can draw the bar live.
      Text after `\\r` replaces the line whole (progress bars pad, so no terminal-style overlay).
      A redrawn bar's state with another write glued after it (tqdm on stderr, a `print` on
      stdout, one file: `  2%|   | 1/50 [00:01<…]epoch 0 loss 0.5`) is two lines, the bar's
      state and the write; a bar that has not begun (`0/50`) is left out, a draft its final
      state replaces (a terminal would show `0%` and `100%` both).
    - UTF-8 characters split across reads are joined; invalid bytes become U+FFFD, never an error.

    The same bytes give the same lines however they are chunked (a property test checks this).
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._line: list[str] = []  # pieces of the current line, joined when it completes
        self._carriage_return = False  # a `\r` was seen: the next text starts the line over
        self._redrawn = False  # the line was drawn over since its start (a progress bar)

    @property
    def partial(self) -> str:
        """The current unfinished line as a terminal would show it (a progress bar's last state)."""
        return "".join(self._line)

    def feed(self, data: bytes) -> list[str]:
        """The lines that `data` completes, in order (often none, often many)."""
        text = self._decoder.decode(data)
        if not text:
            return []
        segments = text.split("\n")
        if len(segments) == 1:
            self._apply(text)
            return []
        self._apply(segments[0])
        lines = self._take()
        middle = segments[1:-1]
        if "\r" in text:
            for segment in middle:
                self._apply(segment)
                lines.extend(self._take())
        else:
            lines.extend(middle)  # the common case: no progress bars, nothing to collapse
        self._apply(segments[-1])
        return lines

    def flush(self) -> list[str]:
        """At the end of the log: the unfinished last line, if it has any text (else nothing)."""
        self._apply(self._decoder.decode(b"", final=True))
        return [line for line in self._take() if line]

    def _apply(self, segment: str) -> None:
        """Add text that holds no `\\n` to the current line, collapsing `\\r` redraws."""
        if not segment:
            return
        if "\r" not in segment:
            if self._carriage_return:
                self._line = [segment]
                self._carriage_return = False
                self._redrawn = True
            else:
                self._line.append(segment)
            return
        head, *redraws = segment.split("\r")
        if head:
            self._apply(head)
        latest = next((part for part in reversed(redraws) if part), None)
        if latest is not None:
            self._line = [latest]
            self._redrawn = True
        self._carriage_return = redraws[-1] == ""

    def _take(self) -> list[str]:
        """The current line, done: one line, or two where a redrawn bar has another write
        glued after it (the bar's state, then the write), or the write alone where the bar had
        not begun (`0/5`: a draft its final state replaces)."""
        line = "".join(self._line)
        self._line = []
        self._carriage_return = False
        if self._redrawn:
            self._redrawn = False
            m = _BAR_STATE.match(line)
            if m is not None and line[m.end() :].strip():
                glued = line[m.end() :]
                return [glued] if float(m["n"]) == 0 else [line[: m.end()], glued]
        return [line]
