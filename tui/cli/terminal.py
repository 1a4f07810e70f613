"""Control characters from data never reach a terminal raw.

A job YAML with `NOTE: "\\e[1A\\e[2Khidden"` would erase the line above it; a log line can set
the terminal's title or hide what follows. When stdout is a terminal, `visible()` shows such
characters escaped (`\\x1b[1A`); piped or redirected output stays byte-exact, so scripts get
exactly what the job holds.
"""

from __future__ import annotations

import re
from typing import BinaryIO, TextIO

# C0 controls but tab and newline, DEL, and the C1 controls (U+0080-U+009F: CSI, OSC, … as one
# code point), which terminals act on as they do on ESC sequences; and lone surrogates, which is
# how Python hands on bytes of a file name or argument that are not UTF-8.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_KEEP_CR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # the byte it stands for (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, keep_cr: bool = False) -> str:
    """`text` with control characters shown as `\\xNN` (newline and tab kept; `keep_cr`: carriage
    return too, which progress bars in logs use to redraw their line)."""
    pattern = _CONTROL_KEEP_CR if keep_cr else _CONTROL
    return pattern.sub(_escaped, text) if pattern.search(text) else text


def is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # closed
        return False


class LogWriter:
    """Writes log bytes to `out`: unchanged when piped, control characters escaped on a terminal.

    Bytes are decoded incrementally, so a UTF-8 character split across two writes stays whole.
    """

    def __init__(self, out: BinaryIO, terminal: bool) -> None:
        import codecs

        self.out = out
        self.terminal = terminal
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def write(self, data: bytes) -> None:
        if self.terminal:
            data = visible(self._decoder.decode(data), keep_cr=True).encode("utf-8")
        self.out.write(data)
        self.out.flush()


class VisibleWriter:
    """A text stream that shows control characters escaped (for a terminal) as it writes;
    everything else is the stream's own (flush, isatty, encoding…)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, text: str) -> int:
        return self.out.write(visible(text))

    def __getattr__(self, name: str):
        return getattr(self.out, name)


def shown(value: object) -> str:
    """`value` as text for stdout: escaped on a terminal (`visible`), as it is when piped."""
    import sys

    text = str(value)
    return visible(text) if is_terminal(sys.stdout) else text


def console():
    """A rich Console for command output whose closed pipe reaches `main()` as BrokenPipeError,
    and whose text shows control characters from data escaped on a terminal (`visible`): a
    user preset's title, a job table's cell (its styles are rich's own, applied after).

    rich's own answer to a closed pipe is `SystemExit(1)`; `dtrain-tui … | head -1` should exit
    0 quietly, as Unix tools do, and `main()` does that for every command in one place.
    """
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

        def render_str(self, text: str, **kwargs):  # every str printed: tables, lines
            return super().render_str(visible(text) if self.is_terminal else text, **kwargs)

    return _Console(highlight=False, soft_wrap=True)
