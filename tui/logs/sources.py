"""Where log bytes come from: anything that can return the bytes of a growing file from an offset."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable


@runtime_checkable
class LogSource(Protocol):
    """A growing log. `read(offset)` returns the bytes from `offset` on (b"" when nothing new)."""

    name: str

    async def read(self, offset: int) -> bytes: ...

    async def size(self) -> int | None:
        """The current size in bytes, or None when the source cannot tell."""
        ...


class FileSource:
    """A log file on this machine (the local backend's rank logs)."""

    def __init__(self, path: Path | str, name: str | None = None) -> None:
        self.path = Path(path)
        self.name = name or self.path.name

    async def read(self, offset: int, limit: int = 8 << 20) -> bytes:
        """Up to `limit` bytes from `offset`; b"" when the file does not exist yet."""
        try:
            with self.path.open("rb") as f:
                f.seek(offset)
                return f.read(limit)
        except FileNotFoundError:
            return b""

    async def size(self) -> int | None:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return None

    def __repr__(self) -> str:
        return f"FileSource({str(self.path)!r})"
