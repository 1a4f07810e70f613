"""Whether a call of a function can reach a statement inside it: a call that leaves a parameter
at its default `None` never enters the branch that needs it (`def lm_checkpoint(cfg,
model=None): if model is not None: torch.save(…)`, called with no model to load, not save)."""

from __future__ import annotations

import ast


def skips(fn: ast.AST, node: ast.AST, call: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """`call` runs `fn` (called by its name, an `__init__` by its class's) without reaching
    `node`: `node` sits in the body of an `if param is not None:` (or `if param:`) of a
    parameter that defaults to None (or False: `if download: self.download()`), or after an
    `if not param: return`, and the call passes no value for it (no such keyword, too few
    positional arguments, no `*`/`**`)."""
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or not isinstance(call, ast.Call):
        return False
    named = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    owner = parents.get(fn)
    built = fn.name == "__init__" and isinstance(owner, ast.ClassDef) and named == owner.name
    if (named != fn.name and not built) or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if any(k.arg is None for k in call.keywords):
        return False
    unset = _unset(fn, call, built)
    child, current = node, parents.get(node)
    while current is not None:
        if isinstance(current, ast.If) and child in current.body and _needs(current.test) & unset:
            return True
        body = getattr(current, "body", None)
        if isinstance(body, list) and child in body and _returned(body[: body.index(child)], unset):
            return True  # `if not test: return os.access(…)` before it
        if current is fn:
            return False
        child, current = current, parents.get(current)
    return False


def _returned(before: list[ast.stmt], unset: set[str]) -> bool:
    """A statement before returns when one of `unset` is not set (`if not test: return`)."""
    return any(
        isinstance(s, ast.If)
        and isinstance(s.body[-1], ast.Return)
        and isinstance(s.test, ast.UnaryOp)
        and isinstance(s.test.op, ast.Not)
        and _needs(s.test.operand) & unset
        for s in before
    )


def _unset(fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, built: bool) -> set[str]:
    """The parameters defaulting to None or False that `call` gives no value."""
    positional = [*fn.args.posonlyargs, *fn.args.args]
    bound = built or isinstance(call.func, ast.Attribute)
    if positional and positional[0].arg in ("self", "cls") and bound:
        positional = positional[1:]  # `obj.method(…)`, `Class(…)`: the first parameter is bound
    defaults = dict(zip(reversed(positional), reversed(fn.args.defaults), strict=False))
    defaults.update(
        (a, d) for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True) if d
    )
    given = {a.arg for a in positional[: len(call.args)]} | {k.arg for k in call.keywords}
    return {
        a.arg
        for a, d in defaults.items()
        if isinstance(d, ast.Constant) and d.value in (None, False) and a.arg not in given
    }


def _needs(test: ast.AST) -> set[str]:
    """The names an `if` test needs set (not None, or true) for its body to run."""
    if isinstance(test, ast.Name):
        return {test.id}
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return {test.left.id}
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return set().union(*map(_needs, test.values))
    return set()
