"""Writing files so that a crash, a full disk or a refused write never leaves half a file.

`write_atomic` writes a temporary file beside the target, fsyncs it and renames it over the
target: readers see the old file or the new one, never a mix, and on any error the old file is
untouched.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str | bytes, mode: int = 0o644) -> None:
    """Replace `path` with `text` atomically; `mode` 0o600 for files that may hold secrets.

    Raises OSError (ENOSPC, EACCES, EISDIR…) with the old file, if any, left as it was.
    """
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    if path.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
