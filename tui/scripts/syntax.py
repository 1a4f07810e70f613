"""Small readers of Python syntax trees the script check's modules share: a call's dotted name,
a block's statements, a call's keyword or a literal's value."""

from __future__ import annotations

import ast
from collections.abc import Iterator


def dotted(node: ast.AST) -> str:
    """`torch.distributed.init_process_group` for a call's function; "" when not a plain name;
    `f()` for what a call returns (`f()()`… walked, not recursed: a hostile chain is long)."""
    parts = plain(node)
    inner = node
    while isinstance(inner, ast.Attribute):
        inner = inner.value
    if isinstance(inner, ast.Call):
        while isinstance(inner, ast.Call):
            inner = inner.func
        parts.append(".".join(reversed(plain(inner))) + "()")
    return ".".join(reversed(parts))


def plain(node: ast.AST) -> list[str]:
    """The names of `a.b.c`, last first; [] when it does not end in a plain name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a block and the blocks inside it, not their expressions (cheap)."""
    todo = list(body)
    while todo:
        stmt = todo.pop()
        yield stmt
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            for inner in getattr(stmt, name, None) or ():
                if isinstance(inner, ast.match_case):
                    todo.extend(inner.body)
                elif isinstance(inner, ast.stmt | ast.excepthandler):
                    todo.append(inner)  # type: ignore[arg-type]


def opens(node: ast.AST, name: str) -> bool:
    """Whether `node` is a `with` block whose context is a call ending in `name`
    (`with strategy.scope():`, `with trainer.rank_zero_first():`)."""
    return isinstance(node, ast.With) and any(
        isinstance(item.context_expr, ast.Call) and dotted(item.context_expr.func).endswith(name)
        for item in node.items
    )


def keyword(call: ast.Call, name: str, position: int | None = None) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


def constant(node: ast.AST | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None
