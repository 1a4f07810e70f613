"""Which names of a script hold the outcome of a rank test, so that a guard on them is a guard
on the rank (`save_to_disk = get_rank() == 0` ... `if not self.save_to_disk: return`)."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from tui.scripts.facts import Module, mentions_rank
from tui.scripts.syntax import dotted, statements

_TESTS = (ast.Compare, ast.BoolOp, ast.UnaryOp)
"""What a rank test's outcome is written as (`get_rank() == 0 or not multi_gpu`)."""


def rank_valued(modules: Sequence[Module]) -> set[str]:
    """Names holding a rank test's outcome (`save_to_disk = get_rank() == 0`, a parameter given
    one by keyword: `is_root=(hvd.rank() == 0)`), attributes set from them (`self.save_to_disk =
    save_to_disk`), and functions that return one (`is_root_worker()`): testing them tests the
    rank."""
    nodes = [n for m in modules for n in m.nodes]  # one walk for both
    pairs = [
        (dotted(t).split(".")[-1], n.value)
        for n in nodes
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name | ast.Attribute)
    ]
    pairs += [  # `RunManager(…, is_root=(hvd.rank() == 0))`: the parameter holds the outcome
        (n.arg, n.value) for n in nodes if isinstance(n, ast.keyword) and n.arg is not None
    ]
    words = {
        name
        for name, value in pairs
        if (isinstance(value, _TESTS) or _predicate(value)) and mentions_rank(value)
    }
    tests = {  # def is_root_worker(self): return self.get_rank() == self.ROOT_RANK
        fn.name
        for fn in nodes
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        and (
            returns := [
                r.value for r in statements(fn.body) if isinstance(r, ast.Return) and r.value
            ]
        )
        and all(isinstance(v, _TESTS) and mentions_rank(v) for v in returns)
    }
    words |= tests | {name for name, value in pairs if _rank_variable(value)}
    held = [(name, v, dotted(v)) for name, v in pairs if isinstance(v, ast.Name | ast.Attribute)]
    return words | {
        name
        for name, v, spelled in held
        if spelled.split(".")[-1] in words
        # `is_root=is_root_rank`: a flag given a name that says it holds a rank test
        or (name.startswith("is_") and isinstance(v, ast.Name) and mentions_rank(v))
    }


_RANK_CALLS = ("rank", "get_rank", "local_rank", "get_local_rank")


def _rank_variable(value: ast.AST) -> bool:
    """`int(os.environ["LOCAL_RANK"])`, `os.getenv("RANK", 0)`: the launcher's rank variable
    itself, or what a rank call returns (`worker_index = hvd.rank()`), so that `device_id == 0`
    tests the rank as `local_rank == 0` does."""
    if isinstance(value, ast.Call) and dotted(value.func) == "int" and value.args:
        value = value.args[0]
    if isinstance(value, ast.Call) and dotted(value.func).split(".")[-1] in _RANK_CALLS:
        return True
    if isinstance(value, ast.Subscript) and dotted(value.value).endswith("environ"):
        key = value.slice
    elif isinstance(value, ast.Call) and dotted(value.func).endswith(("environ.get", "getenv")):
        key = value.args[0] if value.args else None
    else:
        return False
    return isinstance(key, ast.Constant) and key.value in ("RANK", "LOCAL_RANK")


def _predicate(value: ast.AST) -> bool:
    """`comm.is_main_process()`, `dist.is_master()`: a call of a rank test, its outcome."""
    return isinstance(value, ast.Call) and dotted(value.func).split(".")[-1].startswith("is_")
