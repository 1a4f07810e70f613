"""A script-check rule for torch-based frameworks (`PyTorch.script_rules`, and Hugging Face's
own trainer's): a copy of the model made after it was wrapped for distribution.

An EMA copy (`copy.deepcopy(model)`, `EMAModel(model)`, `AveragedModel(model)`) taken from the
DistributedDataParallel wrapper (or what `accelerator.prepare` returns) copies the wrapper with
its process group: newer versions refuse to pickle it, and the copy is never a plain model
(its keys carry `module.`, and it would average gradients with the live model's group)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.syntax import dotted

WRAPS = ("DistributedDataParallel", "FullyShardedDataParallel", "DDP", "FSDP", "prepare")
"""Calls that return the model wrapped for distribution."""
_COPIES = re.compile(r"^(deepcopy|AveragedModel)$|EMA|Ema")
"""Calls that copy the model they are given (EMA helpers deep-copy it)."""


def wrapped_copy_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A copy taken of a name that already holds the wrapped model, later in the same code."""
    wrapped = _wrapped_names(src)
    if not wrapped:
        return
    for name, call in src.calls:
        last = name.split(".")[-1]
        first = call.args[0] if call.args else None
        if not _COPIES.search(last) or not isinstance(first, ast.Name | ast.Attribute):
            continue
        if not _copies_what_it_is_given(src, name, last):
            continue
        wrap = wrapped.get((dotted(first), src.function_of(call)))
        if wrap is None or wrap.lineno >= call.lineno or plan.off(call):
            continue
        yield src.finding(
            call,
            f"{last}({dotted(first)}) copies the model after line {wrap.lineno} wrapped it for "
            "distribution: the copy is the wrapper with its process group (newer versions refuse "
            "to pickle it), never a plain model",
            f"make the copy before the wrap, or copy the plain model inside it "
            f"({dotted(first)}.module, or accelerator.unwrap_model({dotted(first)}))",
            "wrapped_model_deepcopy",
        )


_UNWRAPS = re.compile(r"\.module\b|parallel|unwrap", re.IGNORECASE)
"""What an EMA helper does to copy the plain model inside a wrapper (`model.module`,
`de_parallel(model)`, `unwrap_model`)."""


def _copies_what_it_is_given(src: ScriptFacts, name: str, last: str) -> bool:
    """The call deep-copies its argument as given: `deepcopy` and torch's `AveragedModel` do, and
    so do the libraries' EMA helpers; a class of the code folder is read (YOLOX's `ModelEMA`
    copies `model.module`), and one of the code folder that cannot be read proves nothing."""
    cls = src.classes.get(last)
    if cls is not None:
        return not _UNWRAPS.search(ast.unparse(cls))
    head = name.split(".")[0]
    return not any(Path(m.file).parts[0] == head for m in src.modules[1:])


def _wrapped_names(src: ScriptFacts) -> dict[tuple[str, ast.AST | None], ast.Call]:
    """(name, function) → the wrap call whose result the name holds there."""
    out: dict[tuple[str, ast.AST | None], ast.Call] = {}
    for name, call in src.calls:
        if name.split(".")[-1] not in WRAPS:
            continue
        stmt = src.statement(call)
        if not isinstance(stmt, ast.Assign) or stmt.value is not call:
            continue
        scope = src.function_of(call)
        for target in stmt.targets:
            elts = target.elts if isinstance(target, ast.Tuple) else [target]
            for elt in elts:
                if isinstance(elt, ast.Name | ast.Attribute) and dotted(elt):
                    out[(dotted(elt), scope)] = call
    return out
