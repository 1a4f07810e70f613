"""The standard streams as a command-line tool finds them, made safe before any command runs.

One place for what the environment can do to a command's output, whatever the command:
- a stream whose encoding cannot say `×` or `·` (`LANG=C` without Python's UTF-8 mode,
  `PYTHONIOENCODING=ascii`) gets ASCII stand-ins instead of a `UnicodeEncodeError`;
- a closed descriptor 0, 1 or 2 (`dtrain-tui … >&-`) is pointed at /dev/null, so no file the
  command opens later lands on it, and writing to a closed stdout says so;
- every line on stderr shows control characters from data escaped (`\\x1b]0;…`): it holds
  messages for people, never data a script reads byte for byte;
- a failed write to stdout (`> /dev/full`) becomes `OutputError`, which `main()` reports as
  "cannot write to standard output" in one line; a closed pipe stays a quiet `BrokenPipeError`.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import sys
import unicodedata
from collections.abc import Iterator

ASCII_FOR = {
    "×": "x",
    "·": "-",
    "—": "-",
    "–": "-",
    "…": "...",
    "→": "->",
    "←": "<-",
    "↔": "<->",
    "≥": ">=",
    "≤": "<=",
    "≈": "~",
    "±": "+-",
    "•": "*",
    "✓": "v",
    "✔": "v",
    "✗": "x",
    "✘": "x",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "µ": "u",
    "\u00a0": " ",
}
"""Stand-ins for the characters dtrain-tui's own words use, on a stream that cannot encode them."""


class OutputError(Exception):
    """Standard output could not be written (full, closed, an I/O error)."""


def _ascii(err: UnicodeError) -> tuple[str, int]:
    """The `dtrain-ascii` error handler: a stand-in, an accent-less letter, else `?`."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    out = []
    for char in err.object[err.start : err.end]:
        stand_in = ASCII_FOR.get(char)
        if stand_in is None:
            plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            stand_in = plain or "?"
        out.append(stand_in)
    return "".join(out), err.end


codecs.register_error("dtrain-ascii", _ascii)


def _can_encode_all(stream) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


class GuardedOutput:
    """sys.stdout as it was, whose write and flush failures are `OutputError` (a closed pipe
    stays `BrokenPipeError`); `None` (the descriptor was closed) fails every write."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is None:
            raise OutputError("it is closed")
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(err.strerror or str(err)) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(err.strerror or str(err)) from None

    def isatty(self) -> bool:
        if self._stream is None:
            return False
        with contextlib.suppress(ValueError, OSError):
            return self._stream.isatty()
        return False

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    def __getattr__(self, name: str):
        if self._stream is None:
            raise OutputError("it is closed")
        return getattr(self._stream, name)


def _fill_closed_descriptors() -> None:
    """Descriptors 0-2 that are closed get /dev/null, so a file opened later never becomes
    a process's stdin, stdout or stderr by accident."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError as err:
            if err.errno != errno.EBADF:
                continue
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """For the length of one command: stdout and stderr made safe (see the module docstring).
    The block should flush stdout before it ends, so a failure is reported inside it, not as
    Python's "Exception ignored" at exit."""
    from tui.cli.terminal import VisibleWriter

    saved, saved_err = sys.stdout, sys.stderr
    _fill_closed_descriptors()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            if stream is None:
                continue
            if not _can_encode_all(stream):
                stream.reconfigure(errors="dtrain-ascii")
            elif stream is sys.stdout:  # a file name's bytes go out as they came in
                stream.reconfigure(errors="surrogateescape")
    sys.stdout = GuardedOutput(saved)
    # Messages are for people: never a raw escape from data. A closed stderr (None) would make
    # print(…, file=sys.stderr) write to stdout: its messages go nowhere instead.
    nowhere = open(os.devnull, "w", encoding="utf-8") if saved_err is None else None  # noqa: SIM115
    sys.stderr = VisibleWriter(saved_err if saved_err is not None else nowhere)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved, saved_err
        if nowhere is not None:
            nowhere.close()


def silence() -> None:
    """Point a stdout that failed at /dev/null, so Python's own flush at exit is quiet (the
    process's own stdout only: a stand-in, as tests use, is left alone)."""
    if getattr(sys.stdout, "_stream", sys.stdout) is not sys.__stdout__:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def has_terminal() -> bool:
    """Whether a full-screen UI can run here: stdin and stdout are a terminal (or Textual was
    told to use another driver, as textual-serve does)."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return True
    return all(_isatty(s) for s in (sys.stdin, sys.stdout))


def _isatty(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False


NO_TERMINAL = "no terminal: use a sub-command (`dtrain-tui --help` lists them)"
"""Why the wizard does not start when stdin or stdout is not a terminal."""
