"""The script-check rule for where Python finds the script's own modules (`import_path_not_set`).

A script run as a file (`python src/train.py`, or under a launcher, as every plan runs it)
has its own folder first on the import path, not the code folder's root, which is only the
working folder. A module of the root that the script's folder lacks (`from utils.logger import
…` in autoregressive/train/train_c2i.py, with utils/ at the root) is found only where the plan
sets PYTHONPATH or the script extends `sys.path` itself: otherwise every rank stops at that
import with ModuleNotFoundError. A code folder that is an installable project (`setup.py`,
`pyproject.toml`) may have its packages installed in the environment: nothing is said there.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, Module, ScriptFacts
from tui.scripts.syntax import dotted, statements

_PATH_CHANGES = ("sys.path.insert", "sys.path.append", "sys.path.extend", "site.addsitedir")
"""Calls by which a script puts folders of its own on the import path."""
_PACKAGING = ("setup.py", "setup.cfg", "pyproject.toml")
"""Files that make the code folder an installable project (`pip install -e .`)."""
_CAUGHT = ("ImportError", "ModuleNotFoundError", "Exception", "BaseException")


def import_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """The first import, in the script then the helpers it reads, of a module that only the
    code folder's root holds, where nothing puts the root on the import path."""
    folder = plan.folder
    if folder is None or "PYTHONPATH" in plan.spec.env or _extends_path(src):
        return
    if any((folder / name).is_file() for name in _PACKAGING):
        return  # the project installs its own packages: the environment may hold them
    folder = folder.resolve()
    home = _home(folder, src.modules[0].file)
    if home is None or not home.is_relative_to(folder):
        return
    for module in src.modules:
        for node in sorted(_imports(module), key=lambda n: n.lineno):
            if _guarded(src, node):
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            for name in names:
                head = name.split(".")[0]
                if head in sys.stdlib_module_names or _has(home, head) or not _has(folder, head):
                    continue
                yield src.finding(
                    node,
                    f"`{head}` is a module of the code folder's root, but the script runs as a "
                    f"file from {home.relative_to(folder).as_posix()}/, the only folder of its "
                    "own Python searches: every rank stops here with ModuleNotFoundError",
                    "put the code folder on the import path: set PYTHONPATH=. in the job's "
                    "environment variables (it runs from the code folder)",
                    "import_path_not_set",
                )
                return


def _home(folder: Path, file: str) -> Path | None:
    """The script's own folder: its name is relative to the code folder (a plan's script), or
    as the command line gave it (`dtrain-tui check src/train.py`); None if neither is a file."""
    for path in (folder / file, Path(file)):
        if path.is_file():
            return path.resolve().parent
    return None


def _has(base: Path, head: str) -> bool:
    """`base` holds a module or package called `head` (a `.py` file, or a folder of them)."""
    if (base / f"{head}.py").is_file():
        return True
    package = base / head
    try:
        return package.is_dir() and any(package.glob("*.py"))
    except OSError:
        return False


def _imports(module: Module) -> list[ast.Import | ast.ImportFrom]:
    """The module's import statements, in its blocks too (statements only: a cheap walk)."""
    return [n for n in statements(module.tree.body) if isinstance(n, ast.Import | ast.ImportFrom)]


def _extends_path(src: ScriptFacts) -> bool:
    """The script (or a helper) changes `sys.path` itself (`sys.path.insert(…)`,
    `rootutils.setup_root(__file__, pythonpath=True)`): where it points, the check does not
    follow, so it says nothing."""
    return any(
        name.endswith(_PATH_CHANGES)
        or dotted(call.func).endswith(_PATH_CHANGES)
        or any(k.arg == "pythonpath" for k in call.keywords)
        for name, call in src.calls
    ) or any(
        isinstance(n, ast.Assign) and any(dotted(t) == "sys.path" for t in n.targets)
        for m in src.modules
        for n in statements(m.tree.body)
    )


def _guarded(src: ScriptFacts, node: ast.AST) -> bool:
    """The import is tried, with a fallback for its failure (`try: … except ImportError:`), or
    only read by a type checker (`if TYPE_CHECKING:`)."""
    current = src.parents.get(node)
    while current is not None:
        if isinstance(current, ast.Try) and any(
            h.type is None or any(c in ast.unparse(h.type) for c in _CAUGHT)
            for h in current.handlers
        ):
            return True
        if isinstance(current, ast.If) and "TYPE_CHECKING" in ast.unparse(current.test):
            return True
        current = src.parents.get(current)
    return False
