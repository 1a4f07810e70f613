"""Tests that say which process this is: a rank, the main process, GPU 0 of the node
(`mentions_rank`), and the early return that keeps a block to one rank
(`returns_unless_rank`)."""

from __future__ import annotations

import ast

from tui.scripts.syntax import dotted


def returns_unless_rank(body: list[ast.stmt], child: ast.AST, words: set[str]) -> bool:
    """`if not is_main: return` before `child` in the same block."""
    for stmt in body:
        if stmt is child:
            return False
        if (
            isinstance(stmt, ast.If)
            and mentions_rank(stmt.test, words)
            and isinstance(stmt.body[-1], ast.Return | ast.Continue)
        ):
            return True
    return False


_RANK_WORDS = ("rank", "is_main", "main_process", "main_node", "chief", "global_zero",
               "process_zero", "is_primary", "local_primary", "master")  # fmt: skip


def mentions_rank(test: ast.AST, also: set[str] | frozenset[str] = frozenset()) -> bool:
    """A test about which process this is: a rank, the main process, or GPU 0 of the node."""
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and _first_gpu(node):
            return True
        text = ""
        if isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        if text in also or any(word in text.lower() for word in _RANK_WORDS):
            return True
    return False


def _first_gpu(test: ast.Compare) -> bool:
    """`gpu_id == 0`, `args.gpu == 0`: the node's first process."""
    names = [test.left, *test.comparators]
    zero = any(isinstance(n, ast.Constant) and n.value == 0 for n in names)
    return zero and any("gpu" in dotted(n).lower() for n in names)
