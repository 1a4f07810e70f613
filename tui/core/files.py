"""Writing files so that a crash, a full disk or a refused write never leaves half a file.

`write_atomic` (and `atomic_file`, for writing in pieces) writes a temporary file beside the
target, fsyncs it and renames it over the target: readers see the old file or the new one, never
a mix, and on any error the old file is untouched. A target that exists and is a device
(`/dev/stdout`, `/dev/full`) is written in place: renaming over a device node would replace
the device. A named pipe or socket is refused (`blocks`): opening one waits for a reader.

Files that may hold secrets are created 0600 and their folders 0700 (`private_dir`); other new
files are 0644 less the umask, and a file that is replaced keeps its mode (never more open than
0600 when it may hold secrets).

Stdlib only: the local job supervisor imports this.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

PRIVATE = 0o600
PUBLIC = 0o644


def write_atomic(path: Path | str, text: str | bytes, mode: int = PUBLIC) -> None:
    """Replace `path` with `text` atomically; `mode` 0o600 for files that may hold secrets.

    Raises OSError (ENOSPC, EACCES, EISDIR…) with the old file, if any, left as it was.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    with atomic_file(path, mode, binary=True) as f:
        f.write(data)


@contextlib.contextmanager
def atomic_file(path: Path | str, mode: int = PUBLIC, binary: bool = False) -> Iterator[IO]:
    """A file to write `path`'s new content into; it replaces `path` only if the block ends
    without an error (then fsynced and renamed). UTF-8 text unless `binary`."""
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if st is not None and blocks(st):  # opening it would wait for a reader, maybe forever
        raise OSError(errno.EINVAL, f"{blocks(st)}, not a file", str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _mode_for(st, mode))
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _mode_for(replaced: os.stat_result | None, mode: int) -> int:
    """The mode of the new file: a file it replaces keeps its own (the user's `chmod 600` on
    job.yml survives `export --force`), a new one honours the umask; either way no more open
    than `mode` allows when that is PRIVATE (a file that may hold secrets)."""
    if replaced is not None:
        kept = stat.S_IMODE(replaced.st_mode)
        return kept & PRIVATE if mode == PRIVATE else kept
    return mode & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it (Linux's /proc) where possible."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def private_dir(path: Path | str) -> Path:
    """`path` created (with parents) readable by its owner only; an existing one is tightened."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(stat.S_IMODE(path.stat().st_mode) & 0o700)
    return path


def blocks(st: os.stat_result) -> str | None:
    """What a path is when opening it could wait forever (a FIFO waits for the other end; a
    socket cannot be opened at all), or None for files and devices."""
    if stat.S_ISFIFO(st.st_mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(st.st_mode):
        return "a socket"
    return None


def symlink_loop(err: BaseException) -> str | None:
    """The path of a symbolic link that leads back to itself, when that is what `err` is:
    pathlib's `resolve()` raises RuntimeError("Symlink loop from '…'") before Python 3.13,
    OSError ELOOP after, and so does every open() through such a link."""
    if isinstance(err, RuntimeError) and str(err).startswith("Symlink loop from "):
        return str(err).removeprefix("Symlink loop from ").strip("'\"")
    if isinstance(err, OSError) and err.errno == errno.ELOOP:
        return str(err.filename)
    return None


def why(err: OSError) -> str:
    """An OSError as a few words: `No space left on device`, `Permission denied`…"""
    return err.strerror or str(err)


SECRET_NAME = re.compile(
    r"SECRET|TOKEN|PASSW(OR)?D|(^|_)PASS($|_)|KEY|CREDENTIAL|(^|_)SAS|CONN(ECTION)?_?STR|(^|_)AUTH($|_)|PRIVATE",
    re.IGNORECASE,
)
"""Variable names that look like they carry a secret (WANDB_API_KEY, HF_TOKEN, DB_PASS,
AZURE_STORAGE_CONNECTION_STRING…). The example scripts in presets/scripts/ hide the same names
from the environment they print (they cannot import this: they run on nodes without dtrain-tui)."""


def looks_secret(name: str) -> bool:
    """Whether this variable name looks like it carries a secret."""
    return bool(SECRET_NAME.search(name))


def holds_secrets(env: dict[str, str]) -> bool:
    """Whether any variable name looks like it carries a secret."""
    return any(looks_secret(name) for name in env)
