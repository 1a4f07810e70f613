"""Writing files so that a crash, a full disk or a refused write never leaves half a file.

`write_atomic` (and `atomic_file`, for writing in pieces) writes a temporary file beside the
target, fsyncs it and renames it over the target: readers see the old file or the new one, never
a mix, and on any error the old file is untouched. With `exclusive`, the target must not exist
when the file is complete, not only when the writing starts: of two writers of a new file, one
creates it and the other fails (`FileExistsError`). A temporary file is named
`.NAME.dtrain-tmp-PID-XXXXXXXX`: one that a killed writer left (kill -9, a power cut) is
removed by the next write of NAME once its writer is gone or it is an hour old.

A target that exists and is a device (`/dev/stdout`, `/dev/full`) is written in place: renaming
over a device node would replace the device. A named pipe or socket is refused (`blocks`):
opening one waits for a reader.

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
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

PRIVATE = 0o600
PUBLIC = 0o644


TEMP_MARK = ".dtrain-tmp-"
"""What names a temporary file of `atomic_file`, between the target's name and the writer's pid."""
STALE_SECONDS = 3600
"""Age after which a temporary file is left-over whatever its pid says (pids are reused)."""


def write_atomic(
    path: Path | str, text: str | bytes, mode: int = PUBLIC, *, exclusive: bool = False
) -> None:
    """Replace `path` with `text` atomically; `mode` 0o600 for files that may hold secrets;
    `exclusive`: create it, failing with FileExistsError if it exists (see `atomic_file`).

    Raises OSError (ENOSPC, EACCES, EISDIR…) with the old file, if any, left as it was.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    with atomic_file(path, mode, binary=True, exclusive=exclusive) as f:
        f.write(data)


@contextlib.contextmanager
def atomic_file(
    path: Path | str, mode: int = PUBLIC, binary: bool = False, *, exclusive: bool = False
) -> Iterator[IO]:
    """A file to write `path`'s new content into; it replaces `path` only if the block ends
    without an error (then fsynced and renamed). UTF-8 text unless `binary`.

    `exclusive`: `path` is created, never replaced: FileExistsError if it exists before the
    block or appears while it runs (another writer won), and nothing of this block is kept.
    """
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if st is not None and blocks(st):  # opening it would wait for a reader, maybe forever
        raise OSError(errno.EINVAL, f"{blocks(st)}, not a file", str(path))
    if st is not None and exclusive:
        raise FileExistsError(errno.EEXIST, "File exists", str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
        return
    remove_stale_temps(path)
    fd, tmp = tempfile.mkstemp(prefix=f"{_temp_prefix(path)}{os.getpid()}-", dir=path.parent)
    try:
        os.fchmod(fd, _mode_for(st, mode))
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            _create_from(tmp, path)
        else:
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _create_from(tmp: str, path: Path) -> None:
    """`tmp` becomes `path`, which must not exist: a hard link is created only where no name
    is (checking first, then renaming, lets two writers both succeed, the second replacing
    the first). A filesystem without hard links gets the name claimed with O_EXCL instead, an
    empty file for the instant before the rename over it."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
        try:
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise
        return
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _temp_prefix(path: Path) -> str:
    # The name is cut so that prefix, pid and mkstemp's 8 letters stay within NAME_MAX (255).
    return f".{path.name[:200]}{TEMP_MARK}"


def remove_stale_temps(path: Path | str) -> list[str]:
    """Remove the temporary files of `path` that a killed writer left (kill -9, a power cut):
    those whose writer's process is gone, or an hour old. Returns their names. Never raises:
    a left-over that cannot be removed costs disk, not the write."""
    path = Path(path)
    prefix = _temp_prefix(path)
    removed = []
    try:
        with os.scandir(path.parent) as entries:
            candidates = [e for e in entries if e.name.startswith(prefix)]
    except OSError:
        return removed
    for entry in candidates:
        pid, _, _ = entry.name[len(prefix) :].partition("-")
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            old = time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS
            if old or not _alive(pid):
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            continue
    return removed


def _alive(pid: str) -> bool:
    """Whether process `pid` exists (a name whose pid is unreadable counts as alive)."""
    if not pid.isdigit() or not 0 < int(pid) < 2**31:
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: another user's process, alive
        return True
    return True


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
