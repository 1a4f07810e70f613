"""What a training script does, read with `ast` (never imported or run): the findings' type, and
the facts the script check's rules read (calls, names, strings, imports, which `if` a call is
under). The rules themselves live in each framework's module (`Framework.script_rules`); this
module knows no framework."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.core.spec import JobSpec


@dataclass(frozen=True)
class Finding:
    """What the guide asks for that the script lacks (or gets wrong), and how to fix it.

    `rule` is a stable snake_case id (tests/core/data/scripts/RULES.md); `severity` is "error"
    (the job fails or trains wrongly), "warning" (it runs, worse) or "advice"; `file` is where
    `line` is (a helper module of the code folder, or the script)."""

    line: int | None
    what: str
    fix: str
    rule: str = ""
    severity: str = "error"
    file: str = ""

    @property
    def message(self) -> str:
        return self.what

    def text(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.what}; fix: {self.fix}"

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.what,
            "fix": self.fix,
        }


@dataclass
class ScriptReport:
    """The check of one script for one plan: findings (advice) and notes (what is fine)."""

    script: str
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.findings


class ScriptProblem(ValueError):
    """The script cannot be read as Python (the message says why, in one line)."""


@dataclass(frozen=True)
class CheckPlan:
    """What the rules need to know of the plan: its numbers, and whether ranks get GPUs."""

    spec: JobSpec
    gpus: bool
    world: int

    @property
    def nodes(self) -> int:
        return self.spec.nodes

    @property
    def gpus_per_node(self) -> int:
        return self.spec.gpus_per_node


# ---------------------------------------------------------------------------------------------
# What the source has


def dotted(node: ast.AST) -> str:
    """`torch.distributed.init_process_group` for a call's function; "" when not a plain name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts.append(dotted(node.func) + "()")
    return ".".join(reversed(parts))


class ScriptFacts:
    """The facts the rules need, gathered in one walk over the tree."""

    def __init__(self, tree: ast.Module) -> None:
        self.calls: list[tuple[str, ast.Call]] = []
        self.names: set[str] = set()
        self.strings: set[str] = set()
        self.imports: set[str] = set()
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.Call):
                self.calls.append((dotted(node.func), node))
            elif isinstance(node, ast.Name):
                self.names.add(node.id)
            elif isinstance(node, ast.Attribute):
                self.names.add(node.attr)
            elif isinstance(node, ast.arg):
                self.names.add(node.arg)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                self.strings.add(node.value)
            elif isinstance(node, ast.Import):
                self.imports |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                self.imports.add(node.module)
                self.names |= {a.name for a in node.names}

    def find(self, *suffixes: str) -> list[ast.Call]:
        """Calls whose function name ends with one of `suffixes` (`init_process_group`)."""
        return [
            call
            for name, call in self.calls
            if any(name == s or name.endswith("." + s) for s in suffixes)
        ]

    def has(self, *names: str) -> bool:
        return any(n in self.names or n in self.strings for n in names)

    def imports_any(self, *modules: str) -> bool:
        return any(m == i or i.startswith(m + ".") for i in self.imports for m in modules)

    def guarded_by_rank(self, node: ast.AST) -> bool:
        """Inside an `if` (or a function only entered under one) that tests the rank."""
        current = self.parents.get(node)
        while current is not None:
            if isinstance(current, ast.If | ast.IfExp) and mentions_rank(current.test):
                return True
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
                body = current.body
                first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
                # `if not rank0: return` at the top of the function guards the rest.
                if isinstance(first, ast.If) and mentions_rank(first.test):
                    return True
            current = self.parents.get(current)
        return False


_RANK_WORDS = ("rank", "is_main", "main_process", "main_node", "chief", "global_zero", "master")


def mentions_rank(test: ast.AST) -> bool:
    for node in ast.walk(test):
        text = ""
        if isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        if any(word in text.lower() for word in _RANK_WORDS):
            return True
    return False


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def keyword(call: ast.Call, name: str, position: int | None = None) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


def constant(node: ast.AST | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None
