"""Which functions of a script's code run: those that code which runs names (a call, a
callback, a method of a class it builds), from module-level code outwards. A method of a class
nothing names never runs, whatever other class has a method of the same name."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def live_functions(
    words: dict[ast.AST | None, set[str]],
    functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]],
    own: dict[str, ast.AST],
    classes: dict[str, ast.ClassDef],
    parents: dict[ast.AST, ast.AST],
    aliases: Sequence[dict[str, str]],
    strings: set[str],
    app_run: bool,
    by_name: bool,
) -> set[ast.AST]:
    """The functions that run, given the names each function's code refers to (`words`, None:
    module-level code; `file::name` for a plain name of the module's own function, in `own`),
    the imports' aliases and the strings a registry or a config may build a class by. A
    decorator call registers its function (`@app.command()`: typer's `app()` runs it without
    naming it); absl's `app.run()` (`app_run`) calls `main`; fire (`by_name`) runs any method
    of an object it is given, by the name the command line gives."""
    live: set[ast.AST] = set()
    seen: set[str] = set()
    todo = set(words.get(None, ()))
    for fns in functions.values():
        todo |= {fn.name for fn in fns if any(isinstance(d, ast.Call) for d in fn.decorator_list)}
    if app_run:
        todo.add("main")
    renamed = {  # `from .dist import initialize as dist_init`: the name it is defined by
        local: full.rsplit(".", 1)[-1]
        for table in aliases
        for local, full in table.items()
        if full != local and not full.endswith(f".{local}")
    }
    waiting: dict[str, list[ast.AST]] = {}  # a class's methods named before the class was
    while todo - seen:
        new = todo - seen
        seen |= new
        todo = {renamed[w] for w in new if w in renamed}
        for word in new:
            found: list[ast.AST] = [own[word]] if word in own else []
            for fn in functions.get(word, ()):
                cls = parents.get(fn)
                if isinstance(cls, ast.ClassDef) and not _built(cls, seen, strings):
                    waiting.setdefault(cls.name, []).append(fn)
                else:
                    found.append(fn)
            cls = classes.get(word)
            if cls is not None:  # a plain class's methods run when named (or dunders)
                found += waiting.pop(word, []) + [
                    fn
                    for fn in cls.body
                    if isinstance(fn, _FUNCTIONS)
                    and (cls.bases or by_name or fn.name.startswith("__"))
                ]
            for fn in found:
                if fn not in live:
                    live.add(fn)
                    todo |= words.get(fn, set())
    return live


def _built(cls: ast.ClassDef, seen: set[str], strings: set[str]) -> bool:
    """A class code that runs names, or that a registry (a decorator) or a string may build."""
    return cls.name in seen or bool(cls.decorator_list) or cls.name in strings


def exported(assignments: Sequence[ast.Assign]) -> set[str]:
    """The names modules' `__all__` lists: for `import *`, they build nothing."""
    return {
        e.value
        for a in assignments
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in a.targets)
        and isinstance(a.value, ast.List | ast.Tuple)
        for e in a.value.elts
        if isinstance(e, ast.Constant) and isinstance(e.value, str)
    }


def another(
    local: str, file: str, aliases: dict[str, str], home: str, homes: Mapping[str, list[str]]
) -> bool:
    """Whether a plain call `local(…)` in `file` calls a function of another module than
    `home`: `file` defines its own (`homes`: each top-level function's name → the files that
    define one), or imports the name from a module of the code folder that defines one. An
    import from elsewhere (a package re-exporting it, a star import) may be `home`'s: not
    another."""
    if file == home:
        return False
    full = aliases.get(local)
    if full is None:
        return file in homes.get(local, ())
    module, _, name = full.rpartition(".")
    path = module.replace(".", "/")
    for candidate in (f"{path}.py", f"{path}/__init__.py"):
        defining = [f for f in homes.get(name, ()) if f == candidate or f.endswith(f"/{candidate}")]
        if home in defining:
            return False
        if defining:
            return True
    return False
