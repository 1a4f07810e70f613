"""What a training script does, read with `ast` (never imported or run): the facts the script
check's rules read (calls, names, strings, imports, which `if` a call is under). The rules
themselves live in each framework's module (`Framework.script_rules`); this module knows no
framework."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path

from tui.scripts.finding import Finding, ScriptProblem
from tui.scripts.live import another, exported, live_functions
from tui.scripts.rank_tests import mentions_rank, returns_unless_rank
from tui.scripts.reach import skips
from tui.scripts.syntax import dotted, plain, statements

MOST_NODES = 150_000
"""Syntax nodes checked in all (a 2,000-line script has about 20,000); past it, the script is
refused in one line rather than read for seconds."""


# ---------------------------------------------------------------------------------------------
# What the source has


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _main(test: ast.If) -> bool:
    """`if __name__ == "__main__":`."""
    t = test.test
    return (
        isinstance(t, ast.Compare)
        and dotted(t.left) == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in t.comparators)
    )


class Module:
    """One file of the script's code: its tree, where it is, and what its imports name."""

    def __init__(self, tree: ast.Module, file: str) -> None:
        self.tree = tree
        self.file = file
        self.aliases: dict[str, str] = {}
        """Local name → what it imports (`dist` → `torch.distributed`)."""
        self.imported: list[tuple[str, int]] = []
        """(module, level) of every import, for following those of the code folder."""
        self.parents: dict[ast.AST, ast.AST] = {}
        """Each node's parent, once `nodes` was read."""
        for node in statements(tree.body):
            if isinstance(node, ast.Import):
                for a in node.names:
                    head = a.name.split(".")[0]
                    self.aliases[a.asname or head] = a.name if a.asname else head
                    self.imported.append((a.name, 0))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{base}.{a.name}" if base else a.name
                    self.imported.append((f"{base}.{a.name}" if base else a.name, node.level))
                self.imported.append((base, node.level))

    @cached_property
    def nodes(self) -> list[ast.AST]:
        """Every node of the tree but the Load / Store contexts, breadth first as `ast.walk`
        gives them, walked once (the facts and several rules read them all); `parents` is
        filled on the way."""
        nodes, parents, node_type = [self.tree], self.parents, ast.AST
        append = nodes.append
        for node in nodes:  # the list grows as it is read (ast.iter_child_nodes, inlined)
            for field in node._fields:
                if field == "ctx":
                    continue  # Load / Store: one shared leaf under every name, no fact in it
                value = getattr(node, field, None)
                if isinstance(value, node_type):
                    parents[value] = node
                    append(value)
                elif isinstance(value, list):
                    for item in value:
                        if isinstance(item, node_type):
                            parents[item] = node
                            append(item)
        return nodes

    def resolve(self, name: str) -> str:
        head, _, rest = name.partition(".")
        full = self.aliases.get(head)
        if full is None or full == head:
            return name
        return f"{full}.{rest}" if rest else full


class ScriptFacts:
    """The facts the rules need, gathered in one walk over each module of the script's code:
    the script first, then the modules of its code folder it imports (followed, so set-up done
    in a helper counts). Calls are named through the imports (`dist.barrier` is
    `torch.distributed.barrier`); `calls` holds those in code that runs (module level, or a
    function something refers to)."""

    def __init__(
        self,
        tree: ast.Module,
        file: str = "",
        helpers: Sequence[Module] = (),
        rank_words: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        self.modules = [Module(tree, file), *helpers]
        self.all_calls: list[tuple[str, ast.Call]] = []
        self.names: set[str] = set()
        self.strings: set[str] = set()
        self.imports: set[str] = set()
        self.parents: dict[ast.AST, ast.AST] = {}
        self.module_of: dict[ast.AST, Module] = {}
        self.functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        self.assignments: list[ast.Assign] = []  # every module's `a = …`, in walk order
        self.subscripts: list[ast.Subscript] = []  # and `a[k]` (os.environ[…]), for the rules
        self._words: dict[ast.AST | None, set[str]] = {}
        """Names each function's own code refers to (None: module-level code)."""
        self.own_functions: dict[str, ast.AST] = {}
        """`file::name` → a module's own top-level function (what `_words` names it by)."""
        self.demos: set[ast.AST] = set()
        """Helpers' `if __name__ == "__main__":` blocks: they run only when the helper is the
        script, so nothing in them runs, nor what only they name."""
        self._assigns: dict[tuple[ast.AST, bool], dict[str, list[ast.Assign]]] = {}
        self._rebinds: dict[ast.AST, dict[str, int]] = {}
        """Names bound under a rank test, by function: the first such test's line."""
        budget = MOST_NODES
        for module in self.modules:
            budget = self._walk(module, budget)
        app_run = any(name.endswith("app.run") for name, _ in self.all_calls)
        by_name = any(name == "fire.Fire" for name, _ in self.all_calls)
        self.live = live_functions(
            self._words, self.functions, self.own_functions, self.classes, self.parents,
            [m.aliases for m in self.modules], self.strings - exported(self.assignments),
            app_run, by_name,
        )  # fmt: skip
        self.calls = [(name, call) for name, call in self.all_calls if self.runs(call)]
        self.rank_words = set(rank_words)
        """Names holding a rank test's outcome (script_rank.rank_valued): a guard on the rank."""

    def _walk(self, module: Module, budget: int) -> int:
        owner: dict[ast.AST, ast.AST | None] = {module.tree: None}
        if module is not self.modules[0]:  # a helper's own `__main__` block never runs here
            self.demos |= {n for n in module.tree.body if isinstance(n, ast.If) and _main(n)}
        nodes, parents = module.nodes, module.parents
        if len(nodes) > budget:
            raise ScriptProblem(
                f"{module.file}: more than {MOST_NODES:,} syntax nodes, too big to check"
            )
        budget -= len(nodes)
        self.parents.update(parents)
        self.module_of.update(dict.fromkeys(nodes, module))
        # a plain name of a function the module defines is that one (`save_checkpoint()` in a
        # script is not another script's `save_checkpoint`)
        own = {n.name: n for n in module.tree.body if isinstance(n, _FUNCTIONS)}
        self.own_functions.update((f"{module.file}::{name}", fn) for name, fn in own.items())
        for node in nodes:  # a parent comes before its children (shared leaves aside: `Load`)
            if (up := parents.get(node)) is not None:
                owner[node] = (
                    up if isinstance(up, _FUNCTIONS) or up in self.demos else owner.get(up)
                )
            if isinstance(node, ast.Call):
                self.all_calls.append((module.resolve(dotted(node.func)), node))
            elif isinstance(node, ast.Assign | ast.Subscript):
                (self.assignments if isinstance(node, ast.Assign) else self.subscripts).append(node)
            elif isinstance(node, ast.Name):
                self.names.add(node.id)
                word = f"{module.file}::{node.id}" if node.id in own else node.id
                self._words.setdefault(owner[node], set()).add(word)
            elif isinstance(node, ast.Attribute):
                self.names.add(node.attr)
                self._words.setdefault(owner[node], set()).add(node.attr)
            elif isinstance(node, ast.arg):
                self.names.add(node.arg)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                self.strings.add(node.value)
            elif isinstance(node, ast.Import):
                self.imports |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                self.imports.add(node.module)
                self.names |= {a.name for a in node.names}
            elif isinstance(node, _FUNCTIONS):
                self.functions.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
        return budget

    # ---- which code runs ------------------------------------------------------------------

    def runs(self, node: ast.AST) -> bool:
        """Whether `node` is in code that runs: every function around it is live."""
        current = self.parents.get(node)
        while current is not None:
            if isinstance(current, _FUNCTIONS) and current not in self.live:
                return False
            if current in self.demos:
                return False
            current = self.parents.get(current)
        return True

    def statement(self, node: ast.AST) -> ast.AST:
        """The statement `node` is part of (a finding's line is where it starts)."""
        current: ast.AST | None = node
        while current is not None and not isinstance(current, ast.stmt):
            current = self.parents.get(current)
        return current or node

    def function_of(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        current = self.parents.get(node)
        while current is not None and not isinstance(current, _FUNCTIONS):
            current = self.parents.get(current)
        return current

    def assigns(
        self, scope: ast.AST, top: bool = False
    ) -> dict[str, list[ast.Assign | ast.AnnAssign]]:
        """The `name = …` statements of `scope` by name (`name: Path = …` too), in source order
        (its top level only when `top`); read once per scope: path rules ask for a name's last
        value hundreds of times in a long function."""
        key = (scope, top)
        if key not in self._assigns:
            index: dict[str, list[ast.Assign | ast.AnnAssign]] = {}
            whole = isinstance(scope, ast.Module) and scope in self.module_of
            walked = self.module_of[scope].nodes if whole else ast.walk(scope)
            for n in scope.body if top else walked:  # type: ignore[attr-defined]
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        if isinstance(t, ast.Name):
                            index.setdefault(t.id, []).append(n)
                elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value:
                    index.setdefault(n.target.id, []).append(n)
            for found in index.values():
                found.sort(key=lambda n: n.lineno)
            self._assigns[key] = index
        return self._assigns[key]

    def callers(self, fn: ast.AST) -> list[ast.AST]:
        """Where a function is called or passed by name, in code that runs (a plain function
        is not called by `obj.name()`: `saver.save(…)` is not the script's own `save()`; an
        `__init__` by its class's name, and by its subclasses' `super().__init__()`)."""
        name, owner = getattr(fn, "name", ""), self.parents.get(fn)
        calls = self._callers.get(name, ())
        if isinstance(owner, ast.ClassDef) and name == "__init__":  # built by its class's name
            subclasses = {c.name for c in self.classes.values() if owner.name in _base_names(c)}
            inits = [c for c in calls if getattr(self._class_of(c), "name", None) in subclasses]
            return [*inits, *(c for c in self.callers(owner) if self._class_of(c) is not owner)]
        if isinstance(owner, ast.ClassDef):  # `self.save()` in another class is its own
            return [c for c in calls if not self._own_method_of_another(c, owner)]
        return [c for c in calls if not self._method_call(c, name) and not self._another(c, fn)]

    def _another(self, call: ast.Call, fn: ast.AST) -> bool:
        """`call` names a function `fn`'s name, but another module's (`build(args)` of the
        models package is not `datasets/coco_panoptic.py`'s `build`)."""
        if not isinstance(call.func, ast.Name):
            return False
        m, local = self.module_of[call], call.func.id
        if m.aliases.get(local, local).rpartition(".")[2] != getattr(fn, "name", ""):
            return False  # passed as an argument to the call, not called by it
        home = self.module_of[fn].file
        return another(local, m.file, m.aliases, home, self._homes)

    @cached_property
    def _homes(self) -> dict[str, list[str]]:
        """Each top-level function's name → the files that define one (read once)."""
        homes: dict[str, list[str]] = {}
        for key in self.own_functions:
            file, _, name = key.rpartition("::")
            homes.setdefault(name, []).append(file)
        return homes

    def _class_of(self, node: ast.AST) -> ast.ClassDef | None:
        current = self.parents.get(node)
        while current is not None and not isinstance(current, ast.ClassDef):
            current = self.parents.get(current)
        return current

    def _own_method_of_another(self, call: ast.Call, owner: ast.ClassDef) -> bool:
        """`self.name(…)` inside a class that is not `owner` nor related to it by its bases."""
        f = call.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)):
            return False
        if f.value.id not in ("self", "cls"):
            return False
        other = self._class_of(call)
        if other is None or other is owner:
            return False
        return owner.name not in _base_names(other) and other.name not in _base_names(owner)

    def _method_call(self, call: ast.Call, name: str) -> bool:
        f, aliases = call.func, self.module_of[call].aliases
        return isinstance(f, ast.Attribute) and f.attr == name and plain(f)[-1] not in aliases

    @cached_property
    def _callers(self) -> dict[str, list[ast.Call]]:
        """Each name's calls and the calls it is passed to, in source order (read once: rules
        ask for a function's callers hundreds of times)."""
        index: dict[str, list[ast.Call]] = {}
        for resolved, call in self.calls:
            head = dotted(call.func).split(".")[0]
            library = head in self.module_of[call].aliases and not self.local(resolved)
            names = [] if library else plain(call.func)[:1]  # torch.save is not the own save
            if isinstance(call.func, ast.Name) and call.func.id in self.module_of[call].aliases:
                names.append(resolved.rpartition(".")[2])  # `build as build_coco`: `build`
            for a in [*call.args, *(k.value for k in call.keywords)]:
                if isinstance(a, ast.Name | ast.Attribute):
                    names += plain(a)[:1]
            for name in dict.fromkeys(names):
                index.setdefault(name, []).append(call)
        return index

    def local(self, resolved: str) -> bool:
        """A name resolved through an import of the code folder's own modules."""
        return any(resolved == d or resolved.startswith(d + ".") for d in self._dotted_files)

    @cached_property
    def _dotted_files(self) -> frozenset[str]:
        """The code folder's modules as an import names them (`utils`, `pkg.utils`)."""
        names: set[str] = set()
        for m in self.modules:
            path = Path(m.file).with_suffix("")
            path = path.parent if path.name == "__init__" else path
            names |= {path.name, path.as_posix().replace("/", ".")}
        return frozenset(names)

    # ---- asking ---------------------------------------------------------------------------

    def find(self, *suffixes: str) -> list[ast.Call]:
        """Calls in code that runs whose function name ends with one of `suffixes` (in source
        order: looked up by the name's last part, then sorted back)."""
        index = self._by_last
        found = {
            at: call
            for s in suffixes
            for at, name, call in index.get(s.rpartition(".")[2], ())
            if name == s or name.endswith("." + s)
        }
        return [found[at] for at in sorted(found)]

    @cached_property
    def _by_last(self) -> dict[str, list[tuple[int, str, ast.Call]]]:
        index: dict[str, list[tuple[int, str, ast.Call]]] = {}
        for at, (name, call) in enumerate(self.calls):
            index.setdefault(name.rpartition(".")[2], []).append((at, name, call))
        return index

    def has(self, *names: str) -> bool:
        return any(n in self.names or n in self.strings for n in names)

    def imports_any(self, *modules: str) -> bool:
        return any(m == i or i.startswith(m + ".") for i in self.imports for m in modules)

    def file(self, node: ast.AST | None) -> str:
        module = self.module_of.get(node) if node is not None else None
        return (module or self.modules[0]).file

    def finding(
        self, node: ast.AST | None, what: str, fix: str, rule: str, severity: str = "error"
    ) -> Finding:
        """A finding at `node` (its file and first line), or about the script when None."""
        line = getattr(node, "lineno", None)
        return Finding(line, what, fix, rule, severity, self.file(node))

    def guarded_by_rank(
        self, node: ast.AST, depth: int = 4, off: Callable[[ast.AST], bool] | None = None
    ) -> bool:
        """Inside an `if` that tests the rank (or after a rank test that returns), or in a
        function whose every caller is so guarded: a guard in the caller covers the callee (a
        caller `off` says the plan never reaches needs none)."""
        current, child, words = self.parents.get(node), node, self.rank_words
        if self._rebound_by_rank(node):
            return True
        while current is not None:
            if isinstance(current, ast.If | ast.IfExp) and mentions_rank(current.test, words):
                return True
            if isinstance(current, _FUNCTIONS):
                if any(mentions_rank(d) for d in current.decorator_list):
                    return True  # @rank_zero_only
                if returns_unless_rank(current.body, child, words):
                    return True
                callers = self.callers(current)
                if not callers and self._callers.get(current.name):
                    return True  # called by its name only as other classes' own methods: never
                if depth and callers:  # a caller that cannot reach `node` needs no guard
                    reach = [c for c in callers if not skips(current, node, c, self.parents)]
                    reach = [c for c in reach if off is None or not off(c)]
                    return all(self.guarded_by_rank(c, depth - 1, off) for c in reach)
                return False
            body = getattr(current, "body", None)
            if isinstance(body, list) and child in body and returns_unless_rank(body, child, words):
                return True
            current, child = self.parents.get(current), current
        return False

    def _rebound_by_rank(self, node: ast.AST) -> bool:
        """`saver.save(…)` where `saver` is bound again under a rank test before the call
        (`if hvd.rank() == 0: saver = ModelSaver(…) else: saver = NoOp()`): what the call
        does depends on the rank, as inside an `if`."""
        func = getattr(node, "func", None)
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return False
        name, fn = func.value.id, self.parents.get(node)
        while fn is not None and not isinstance(fn, (*_FUNCTIONS, ast.Module)):
            fn = self.parents.get(fn)
        if fn is None:
            return False
        if fn not in self._rebinds:  # read once a function: a long one has hundreds of calls
            first: dict[str, int] = {}
            for test in ast.walk(fn):
                if isinstance(test, ast.If) and mentions_rank(test.test, self.rank_words):
                    for s in ast.walk(test):
                        for t in s.targets if isinstance(s, ast.Assign) else ():
                            if isinstance(t, ast.Name):
                                first[t.id] = min(first.get(t.id, test.lineno), test.lineno)
            self._rebinds[fn] = first
        return self._rebinds[fn].get(name, node.lineno) < node.lineno


def _base_names(cls: ast.ClassDef) -> set[str]:
    """The names of a class's bases, last part only (`nn.Module` is `Module`)."""
    return {dotted(b).split(".")[-1] for b in cls.bases}
