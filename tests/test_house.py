"""The house stays easy to change: what the product knows about a framework lives in that
framework's module (`tui/frameworks/`), and no module is too big to read in one sitting."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    p for d in ("tui", "screens", "widgets") for p in (ROOT / d).rglob("*.py") if p.is_file()
)
FRAMEWORK_WORDS = re.compile(
    r"tensorflow|deepspeed|torchrun|accelerate|lightning|horovod|TF_CONFIG", re.IGNORECASE
)
MOST_NAMING = 6
"""Modules outside the package that may name a framework, comments included: the model's list
of names and its spec fields, the CLI's public words, the doctor's causes, the chart's hint."""
MOST_LINES = 450


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_few_modules_outside_the_framework_package_name_a_framework():
    naming = [
        _name(p)
        for p in SOURCES
        if not _name(p).startswith("tui/frameworks/")
        and FRAMEWORK_WORDS.search(p.read_text(encoding="utf-8"))
    ]
    assert len(naming) <= MOST_NAMING, naming


def test_no_module_is_too_big_to_read():
    big = {
        _name(p): n
        for p in SOURCES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert big == {}


def test_the_registry_lists_one_module_per_framework():
    from tui.frameworks import registry

    modules = {type(f).__module__ for f in registry.frameworks()}
    assert len(modules) == len(registry.frameworks()) == len(set(registry.names()))
    for framework in registry.frameworks():
        assert (ROOT / "presets" / "jobs" / f"{framework.example}.yaml").is_file(), framework.name
        assert (ROOT / "presets" / "scripts" / framework.sample_script).is_file(), framework.name


def test_every_framework_package_has_the_extra_that_installs_it():
    import tomllib

    from tui.frameworks import registry

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for framework in registry.frameworks():
        for package in framework.packages:
            assert package.extra in extras, (framework.name, package)


# ---- rooms and the way down -----------------------------------------------------------------

LAYERS = (
    "tui.cli",
    "tui.app",
    "screens",
    "widgets",
    "tui.backends",
    "tui.logs",
    "tui.planning",
    "tui.frameworks",
    "tui.scripts",
    "tui.core",
)
"""The packages from the top down (`../shared/DESIGN.md`, the README's layout): each imports only
those after it. A module of `tui/` outside them (the app's small helpers) is a room of its own."""


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in SOURCES}


def _imports(module: str) -> set[str]:
    """The project's modules `module` imports anywhere in its text: at the top, inside functions
    and for type checking only (an import for a type ties the rooms as much as any)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


GRAPH = {module: _imports(module) for module in MODULES}


def _room(module: str) -> str:
    return next((layer for layer in LAYERS if module.startswith(layer)), module)


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected parts of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while not part or part[-1] != node:
                part.append(stack.pop())
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_import_graph_is_read():
    assert "tui.core.spec" in GRAPH["tui.planning.plan"]
    assert "tui.scripts.facts" in GRAPH["tui.frameworks.base"]
    assert {_room(m) for m in MODULES} >= set(LAYERS)


def test_no_circle_between_modules():
    assert _circles(GRAPH) == []


def test_no_circle_between_rooms():
    rooms: dict[str, set[str]] = {}
    for module, imported in GRAPH.items():
        rooms.setdefault(_room(module), set()).update(_room(m) for m in imported)
    assert _circles({room: out - {room} for room, out in rooms.items()}) == []


def test_each_layer_imports_only_the_layers_below_it():
    upward = sorted(
        f"{module} -> {imported}"
        for module, out in GRAPH.items()
        for imported in out
        if _room(module) in LAYERS
        and _room(imported) in LAYERS
        and LAYERS.index(_room(imported)) < LAYERS.index(_room(module))
    )
    assert upward == []
