"""Where a training script's files live under the plan, read from the AST: the model the file
rules reason from (`script_files`).

On Azure ML every node runs in its own working folder (its own snapshot of the code folder) on
its own local disk; what the nodes share while the job runs is only what is mounted (datastore
inputs and outputs, passed as `${{inputs.x}}` / `${{outputs.x}}` or read from an AZUREML_*
variable); `outputs/` is node-local while the job runs and gathered into the run's artifacts
after it (the same name from two nodes: the last upload wins). A path is followed through the
code to its first component (`os.path.join(args.out, "ckpt")`, `f"{root}/x"`, `Path(a) / b`,
`"./data-%d" % rank`), and its value taken under the plan's command (`script_flow`).
"""

from __future__ import annotations

import ast
import weakref
from dataclasses import dataclass

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import ScriptFacts
from tui.scripts.syntax import dotted

NODE = "node"
"""The node's own working folder or disk: the other nodes cannot see it."""
AFTER = "after"
"""`outputs/`: node-local while the job runs, gathered into the run's artifacts after it."""
SHARED = "shared"
"""A mounted datastore input or output: every node sees the same files while the job runs."""

_LOCAL_ROOTS = ("/tmp", "/var/tmp", "/dev/shm", "~", "/root", "/home")
_CLOCKS = ("time.time", "time.strftime", "datetime.now", "datetime.today", "uuid1", "uuid4")
_RANDOM = ("random.random", "random.randint", "randint", "token_hex", "mkdtemp", "getpid")


@dataclass(frozen=True)
class Place:
    """Where a path points, and what its name is made of."""

    where: str | None
    """NODE, AFTER or SHARED; None when it cannot be known from the source (an absolute path
    that may be a mount, a value only the running job knows)."""
    text: str = ""
    """The path's known start, as the plan gives it (`./data`, `outputs/ckpt`)."""
    per_process: bool = False
    """Named from a clock or a random id: each process makes its own (`run-20250101-120304`)."""
    per_rank: bool = False
    """Named from the rank: each rank has its own (`./data-%d % rank`)."""
    unique: bool = False
    """Named from a process id, a random id or a clock to the microsecond: no two processes
    share it (a clock to the second they do, started together)."""


def place(src: ScriptFacts, plan: CheckPlan, node: ast.AST | None) -> Place:
    """Where the path `node` points under the plan."""
    if node is None:
        return Place(None)
    head, marks = _head(src, plan, node, 8), _marks(src, node, 6)
    per_rank = "rank" in marks
    per_process = "clock" in marks
    unique = "unique" in marks
    if not isinstance(head, str):
        return Place(None, "", per_process, per_rank, unique)
    return Place(where_is(head), head, per_process, per_rank, unique)


def where_is(text: str) -> str | None:
    """NODE, AFTER, SHARED or None for a path's text as the plan gives it."""
    if "${{inputs." in text or "${{outputs." in text or "AZUREML_" in text:
        return SHARED
    clean = text.strip()
    if clean.startswith("./"):
        clean = clean[2:]
    if clean == "outputs" or clean.startswith("outputs/"):
        return AFTER
    if clean.startswith(_LOCAL_ROOTS):
        return NODE
    if clean.startswith("/") or "://" in clean:
        return None  # a mount, a URL, or a disk the job's image provides: not provable
    return NODE  # relative: the node's own copy of the code folder


def _head(src: ScriptFacts, plan: CheckPlan, node: ast.AST, depth: int) -> object:
    """The path's first component's text: enough to know where it is."""
    if depth <= 0:
        return None
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        if isinstance(first, ast.Constant):
            return first.value
        if isinstance(first, ast.FormattedValue):
            return _head(src, plan, first.value, depth - 1)
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Div | ast.Mod):
        return _head(src, plan, node.left, depth - 1)
    if isinstance(node, ast.Call):
        name = dotted(node.func).split(".")[-1]
        if name in ("join", "Path", "str", "abspath", "expanduser", "PurePath") and node.args:
            return _head(src, plan, node.args[0], depth - 1)
        if name in ("getcwd", "cwd"):
            return "."
        if name in ("gettempdir", "mkdtemp"):
            return "/tmp"
        return None
    if plan.flow is not None:
        value = plan.flow.value_at(node)
        if value.known:
            return value.value if isinstance(value.value, str) else None
    if isinstance(node, ast.Name):
        made = _assigned(src, node)
        if made is None:  # a parameter: what its callers pass, else its default
            made = next(iter(_passed(src, node)), None) or _default(src, node)
        return _head(src, plan, made, depth - 1) if made is not None else None
    return None


def _default(src: ScriptFacts, name: ast.Name) -> ast.AST | None:
    """The default of the parameter `name` of its function (`def load_data(data_dir="./data")`)."""
    fn = src.function_of(name)
    if fn is None:
        return None
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    given = positional[len(positional) - len(args.defaults) :]
    pairs = list(zip(given, args.defaults, strict=True))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
    return next((d for a, d in pairs if a.arg == name.id), None)


def _assigned(src: ScriptFacts, name: ast.Name) -> ast.AST | None:
    """The value last assigned to `name` before it, in its own function, else at module level
    (a global such as `dataroot = "data/"`)."""
    module = src.module_of[name].tree
    scope = src.function_of(name) or module
    found = _last_assign(src, scope, name)
    if found is None and scope is not module:
        found = _last_assign(src, module, name, top=True)
    return found


def _last_assign(
    src: ScriptFacts, scope: ast.AST, name: ast.Name, top: bool = False
) -> ast.AST | None:
    made = src.assigns(scope, top).get(name.id, ())
    before = [n for n in made if top or n.lineno < name.lineno]
    return before[-1].value if before else None


def _marks(src: ScriptFacts, node: ast.AST, depth: int, seen: set[int] | None = None) -> set[str]:
    """What a path's name is made of: "rank" (each rank its own), "clock" (from a clock or a
    random id: each run its own), "unique" (one process's own: a process id, a random id, a
    clock to the microsecond), following the local names and parameters it is built from
    (each value once)."""
    seen = set() if seen is None else seen
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            name = dotted(n.func)
            if name.endswith(_CLOCKS + _RANDOM):
                out.add("clock")
            if name.endswith(_RANDOM) or name.endswith("time.time") or _microseconds(n):
                out.add("unique")
        elif isinstance(n, ast.Name | ast.Attribute):
            word = (n.id if isinstance(n, ast.Name) else n.attr).lower()
            if "rank" in word:
                out.add("rank")
            if isinstance(n, ast.Name) and depth > 0:
                made = _assigned(src, n)
                for value in [made] if made is not None else _passed(src, n):
                    if id(value) not in seen:
                        seen.add(id(value))
                        out |= _marks(src, value, depth - 1, seen)
    return out


def _microseconds(call: ast.Call) -> bool:
    """`strftime("...%f")`: a name no two processes share (one to the second, they do)."""
    return any(isinstance(a, ast.Constant) and "%f" in str(a.value) for a in call.args)


def _passed(src: ScriptFacts, name: ast.Name) -> list[ast.AST]:
    """What the callers pass for `name` when it is a parameter of its function (a class's
    `__init__` is called by the class's name): `open(filename)` in a writer made with
    `Writer(os.path.join(d, "log%s.txt" % suffix))`."""
    fn = src.function_of(name)
    if fn is None:
        return []
    params = [a.arg for a in fn.args.args]
    if name.id not in params:
        return []
    owner = src.parents.get(fn)
    method = isinstance(owner, ast.ClassDef)
    index = params.index(name.id) - (1 if method and params[:1] == ["self"] else 0)
    callee = owner.name if method and fn.name == "__init__" else fn.name
    out: list[ast.AST] = []
    for call in _calls_named(src).get(callee, ()):
        given = [k.value for k in call.keywords if k.arg == name.id]
        if not given and 0 <= index < len(call.args):
            given = [call.args[index]]
        out += given
    return out


_NAMED: weakref.WeakKeyDictionary[ScriptFacts, dict[str, list[ast.Call]]] = (
    weakref.WeakKeyDictionary()
)


def _calls_named(src: ScriptFacts) -> dict[str, list[ast.Call]]:
    """The script's calls by the last word of their function's name, in source order (built
    once a script: a path's parameters are followed to their callers many times)."""
    if src not in _NAMED:
        index: dict[str, list[ast.Call]] = {}
        for _, call in src.calls:
            index.setdefault(dotted(call.func).split(".")[-1], []).append(call)
        _NAMED[src] = index
    return _NAMED[src]
