"""The backends this installation has, each built on first use (`tui.app.DtrainApp`'s default).

Nothing here imports a backend: each is imported when first made. The local one brings the plan,
the exports, YAML and httpx (over 0.15 s, which the wizard's first frame must not wait for);
azure-ai-ml takes over a second.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def default_backends() -> dict[str, Callable[..., Any]]:
    """The backends this installation has; each is built on first use."""
    backends: dict[str, Callable[..., Any]] = {"local": local_backend}
    if _installed("azure.ai.ml"):
        backends["azureml"] = _one_azure_backend()
    return backends


def local_backend(**options: Any) -> Any:
    """A `LocalBackend(**options)`, its module imported now (it ships with dtrain-tui)."""
    from tui.backends.local import LocalBackend

    return LocalBackend(**options)


def _installed(module: str) -> bool:
    """Whether `module` can be imported, without importing it (azure.ai.ml takes over a second)."""
    from importlib.util import find_spec

    try:
        return find_spec(module) is not None
    except ImportError:
        return False


def _one_azure_backend() -> Callable[[], Any]:
    """A factory that makes one AzureMLBackend and keeps it: the Submit step's check signs in
    once for the submit, and a retried submit finds the job a lost answer left behind."""
    import threading

    made: list[Any] = []
    lock = threading.Lock()

    def factory() -> Any:
        with lock:
            if not made:
                from tui.backends.azureml import AzureMLBackend

                made.append(AzureMLBackend())
            return made[0]

    return factory
