"""The local backend: runs a plan on this machine with the real launchers (see `backend`).

`LocalBackend` is loaded on first use: the supervisor, `python -m tui.backends.local.supervisor`,
imports this package too and must start on the standard library alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.backends.local.backend import LocalBackend

__all__ = ["LocalBackend"]


def __getattr__(name: str) -> Any:
    if name == "LocalBackend":
        from tui.backends.local.backend import LocalBackend

        return LocalBackend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
