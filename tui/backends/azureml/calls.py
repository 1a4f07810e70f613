"""`Call` trees from `tui.planning.sdk` made into real azure-ai-ml objects."""

from __future__ import annotations

import importlib
from typing import Any

from tui.planning.sdk import Call


def build(value: Any) -> Any:
    """`Call`s made real: the named class from the named module, called with built arguments."""
    if isinstance(value, Call):
        target = getattr(importlib.import_module(value.module), value.name)
        return target(**{k: build(v) for k, v in value.kwargs.items()})
    if isinstance(value, dict):
        return {k: build(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(build(v) for v in value)
    return value
