"""Following values through a script without running it: what its arguments hold under the
plan's command (given, or their defaults), what it reads from the plan's environment, and which
`if` then goes which way, so a rule can ask whether a line is reached and, when it is not,
which flag's default turned it off. A small, cautious evaluator: literals, the parsed arguments
(`args.world_size`), `os.environ`, local names assigned in straight-line code, comparisons,
`and`/`or`/`not`, arithmetic, `int()`/`float()`/`str()`/`bool()`, `torch.cuda.device_count()`
(the plan's GPUs per node), `torch.cuda.is_available()` and `platform.system()` as the plan's
Linux nodes answer. Anything else is unknown, and an unknown test says nothing."""

from __future__ import annotations

import ast
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field

from tui.scripts.args import Outcome, Parser
from tui.scripts.facts import ScriptFacts
from tui.scripts.syntax import constant, dotted

UNKNOWN: object = type("Unknown", (), {"__repr__": lambda self: "?"})()


@dataclass(frozen=True)
class Value:
    """A value, and the arguments whose defaults (not given on the command line) made it."""

    value: object
    flags: frozenset[str] = frozenset()
    env: bool = False
    """Read from the launcher's environment (RANK, WORLD_SIZE, ...): right under the plan."""

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN


NOTHING = Value(UNKNOWN)

_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_PLATFORM = {"sys.platform": "linux", "os.name": "posix"}
"""What the job's Linux nodes report."""
_PLATFORM_CALLS = {"platform.system": "Linux"}
"""The same, asked through a call (`platform.system() == "Windows"`)."""
_CASTS = {"int": int, "float": float, "str": str, "bool": bool}
_BACKENDS = ("Backend.GLOO", "Backend.NCCL", "Backend.MPI")
_TRUE = frozenset({"1", "true", "t", "yes", "y", "on"})
"""What a text-to-bool helper reads as True (as `distutils.util.strtobool` does)."""
ENV_FLAG = "$"
"""A flag named `$NAME` is the environment variable NAME, unset by the plan, at its default."""


def command_flags(flags: frozenset[str]) -> frozenset[str]:
    """The command-line flags among `flags` (not the environment's `$NAME`)."""
    return frozenset(f for f in flags if not f.startswith(ENV_FLAG))


_DEVICE_COUNTS = ("device_count", "cpu_count")


@dataclass
class Flow:
    """The values of one script under the plan: `run()` walks its code once, in source order."""

    src: ScriptFacts
    parser: Parser | None
    outcome: Outcome | None
    env: Mapping[str, object]
    gpus_per_node: int
    args: dict[str, Value] = field(default_factory=dict)
    tests: dict[ast.AST, Value] = field(default_factory=dict)
    flag_nodes: dict[str, ast.AST] = field(default_factory=dict)
    failed: list[tuple[ast.Assert, dict[str, Value]]] = field(default_factory=list)
    """`assert`s that fail under the plan, with the names known there."""
    assigned: dict[str, ast.AST] = field(default_factory=dict)
    """Where each local name was last assigned a value (its literal's line)."""
    scopes: dict[ast.AST, dict[str, Value]] = field(default_factory=dict)
    """Each function's (and module's) local names as its code leaves them."""
    _by_name: dict[str, list[ast.Call]] | None = None
    _offs: dict[tuple[ast.AST, int], Value | None] = field(default_factory=dict)

    def run(self) -> Flow:
        if self.parser is not None and self.outcome is not None:
            for arg in self.parser.args:
                self.flag_nodes.setdefault(arg.dest, arg.node)
                if arg.dest in self.outcome.given:
                    self.args[arg.dest] = Value(_convert(self.outcome.given[arg.dest], arg.kind))
                else:
                    default = self.value(arg.default, {}) if arg.default is not None else None
                    known = default.value if default is not None else None
                    if default is not None and default.env:  # default=os.getenv("LOCAL_RANK")
                        self.args[arg.dest] = default  # the launcher's value: right, not a flag's
                    else:
                        self.args[arg.dest] = Value(known, frozenset({arg.dest}))
        for module in self.src.modules:
            self.scopes[module.tree] = {}
            self._block(module.tree.body, self.scopes[module.tree], certain=True)
        order = {m.file: i for i, m in enumerate(self.src.modules)}
        live = [fn for fns in self.src.functions.values() for fn in fns if fn in self.src.live]
        command = self.parser.function if self.parser is not None else None
        seeds = {a.dest: self.args[a.dest] for a in self.parser.args} if command else {}
        for fn in sorted(live, key=lambda f: (order[self.src.file(f)], f.lineno)):
            self.scopes[fn] = dict(seeds) if fn is command else self._passed(fn)
            self._block(fn.body, self.scopes[fn], certain=True)
        return self

    def _passed(self, fn: ast.AST) -> dict[str, Value]:
        """The parameters to which every caller passes the same known value (a flag's default
        or given value, the launcher's variable, a literal: `main_worker(args.local_rank, ...)`
        gives `local_rank` --local_rank's default); the rest stay unknown. Callers met before
        `fn` in source order are the ones followed."""
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            return {}
        calls = self._plain_calls().get(fn.name, [])
        if not calls:
            return {}
        names = [a.arg for a in fn.args.args]
        if names[:1] in (["self"], ["cls"]):
            return {}
        passed: dict[str, Value] = {}
        for i, name in enumerate(names):
            seen = [self._argument(call, i, name) for call in calls]  # a list's value: unhashable
            value = seen[0] if all(v == seen[0] for v in seen[1:]) else NOTHING
            if value.known:
                passed[name] = value
        return passed

    def _plain_calls(self) -> dict[str, list[ast.Call]]:
        """The calls of a plain name (`main_worker(...)`) in code that runs, by that name."""
        if self._by_name is None:
            self._by_name = {}
            for _, call in self.src.calls:
                if isinstance(call.func, ast.Name):
                    self._by_name.setdefault(call.func.id, []).append(call)
        return self._by_name

    def _argument(self, call: ast.Call, position: int, name: str) -> Value:
        """What `call` passes as the parameter at `position` (or by its name)."""
        node = next((k.value for k in call.keywords if k.arg == name), None)
        if node is None and position < len(call.args):
            node = call.args[position]
            if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
                return NOTHING
        if node is None:
            return NOTHING
        scope = self.src.function_of(call) or self.src.module_of[call].tree
        if scope not in self.scopes:
            return NOTHING
        return self.value(node, self.scopes[scope])

    # ---- statements -----------------------------------------------------------------------

    def _block(self, body: list[ast.stmt], local: dict[str, Value], certain: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                value = self.value(stmt.value, local) if certain else NOTHING
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    self._assign(target, value, local)
                    if isinstance(target, ast.Name) and isinstance(
                        stmt.value, ast.Constant | ast.BinOp
                    ):
                        self.assigned.setdefault(target.id, stmt)
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                local[stmt.target.id] = NOTHING
            elif isinstance(stmt, ast.Assert) and certain:
                test = self.value(stmt.test, local)
                if test.known and not test.value:
                    self.failed.append((stmt, dict(local)))
            elif isinstance(stmt, ast.If):
                test = self.value(stmt.test, local)
                self.tests[stmt] = test
                parts = stmt.test.values if isinstance(stmt.test, ast.BoolOp) else ()
                self.tests.update((p, self.value(p, local)) for p in parts)  # as reached
                if test.known and certain:
                    taken, other = (
                        (stmt.body, stmt.orelse) if test.value else (stmt.orelse, stmt.body)
                    )
                    self._block(taken, local, certain)
                    self._taint(other, test.flags, local)
                else:
                    self._block(stmt.body, local, False)
                    self._block(stmt.orelse, local, False)
            elif isinstance(stmt, ast.With | ast.Try):
                self._block(stmt.body, local, certain)
            elif isinstance(stmt, ast.For | ast.While | ast.AsyncFor):
                self._block(stmt.body, local, False)

    def _assign(self, target: ast.AST, value: Value, local: dict[str, Value]) -> None:
        if isinstance(target, ast.Name):
            local[target.id] = value
        elif self._is_args(target):
            self.args[target.attr] = value  # type: ignore[attr-defined]
        elif isinstance(target, ast.Tuple | ast.List):  # `args.local_rank, args.rank = f()`
            items = value.value if isinstance(value.value, tuple | list) else ()
            known = len(items) == len(target.elts)  # (a starred target takes no one item)
            known = known and not any(isinstance(e, ast.Starred) for e in target.elts)
            for at, element in enumerate(target.elts):
                self._assign(element, Value(items[at], value.flags) if known else NOTHING, local)

    def _taint(self, body: list[ast.stmt], flags: frozenset[str], local: dict[str, Value]) -> None:
        """What a branch not taken would have assigned keeps the flags that decided it."""
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            stored = isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
            if stored and self._is_args(node) and node.attr in self.args:  # type: ignore[union-attr]
                old = self.args[node.attr]  # type: ignore[union-attr]
                self.args[node.attr] = Value(old.value, old.flags | flags, old.env)  # type: ignore[union-attr]

    def _is_args(self, node: ast.AST) -> bool:
        names = self.parser.namespaces if self.parser else set()
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in names
        )

    # ---- expressions ----------------------------------------------------------------------

    def value_at(self, node: ast.AST | None) -> Value:
        """`node`'s value with the local names of the code it is in."""
        if node is None:
            return NOTHING
        scope = self.src.function_of(node) or self.src.module_of[node].tree
        return self.value(node, self.scopes.get(scope, {}))

    def value(self, node: ast.AST | None, local: dict[str, Value], depth: int = 0) -> Value:
        if node is None or depth > 40:
            return NOTHING
        try:
            return self._value(node, local, depth + 1)
        except (TypeError, ValueError, ArithmeticError, OverflowError):
            return NOTHING

    def _value(self, node: ast.AST, local: dict[str, Value], depth: int) -> Value:
        if isinstance(node, ast.Constant):
            return Value(node.value)
        if isinstance(node, ast.Name):
            if node.id == "__name__" and node.id not in local:
                main = self.src.module_of.get(node) is self.src.modules[0]
                return Value("__main__") if main else NOTHING
            if node.id in local:
                return local[node.id]
            module = self.src.module_of.get(node)
            names = self.scopes.get(module.tree) if module is not None else None
            return names.get(node.id, NOTHING) if names is not None else NOTHING  # a global
        if isinstance(node, ast.Attribute) and self._is_args(node):
            return self.args.get(node.attr, NOTHING)
        if isinstance(node, ast.Attribute) and dotted(node) in _PLATFORM:
            return Value(_PLATFORM[dotted(node)])
        if isinstance(node, ast.Attribute) and dotted(node).endswith(_BACKENDS):
            return Value(node.attr.lower())  # `dist.Backend.GLOO` is the string "gloo"
        if isinstance(node, ast.Subscript) and dotted(node.value).endswith("os.environ"):
            key = self.value(node.slice, local, depth)
            return self._env(key.value, UNKNOWN)
        if isinstance(node, ast.Call):
            return self._call(node, local, depth)
        if isinstance(node, ast.UnaryOp):
            inner = self.value(node.operand, local, depth)
            if not inner.known:
                return Value(UNKNOWN, inner.flags)
            if isinstance(node.op, ast.Not):
                return Value(not inner.value, inner.flags)
            if isinstance(node.op, ast.USub):
                return Value(-inner.value, inner.flags)  # type: ignore[operator]
            return NOTHING
        if isinstance(node, ast.BoolOp):
            return self._bool(node, local, depth)
        if isinstance(node, ast.Compare):
            left = self.value(node.left, local, depth)
            flags = left.flags
            result: object = True
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = self.value(right_node, local, depth)
                flags |= right.flags
                if isinstance(right_node, ast.Attribute) and dotted(right_node).endswith(
                    "os.environ"
                ):
                    right = Value(self.env)
                if not (left.known and right.known) or type(op) not in _COMPARE:
                    return Value(UNKNOWN, flags)
                result = result and _COMPARE[type(op)](left.value, right.value)
                left = right
            return Value(bool(result), flags)
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            a, b = self.value(node.left, local, depth), self.value(node.right, local, depth)
            numbers = isinstance(a.value, int | float) and isinstance(b.value, int | float)
            text = isinstance(a.value, str) and isinstance(node.op, ast.Add)  # no "%9999999d"
            if (numbers or text) and _small(a.value) and _small(b.value):
                result = _ARITHMETIC[type(node.op)](a.value, b.value)
                return Value(result if _small(result) else UNKNOWN, a.flags | b.flags)
            return Value(UNKNOWN, a.flags | b.flags)
        if isinstance(node, ast.List | ast.Tuple) and len(node.elts) <= 8:
            items = [self.value(e, local, depth) for e in node.elts]
            if all(i.known for i in items):  # `rank in [-1, 0]`
                return Value(
                    tuple(i.value for i in items), frozenset().union(*(i.flags for i in items))
                )
        if isinstance(node, ast.IfExp):
            test = self.value(node.test, local, depth)
            if test.known:
                chosen = self.value(node.body if test.value else node.orelse, local, depth)
                return Value(chosen.value, chosen.flags | test.flags)
        return NOTHING

    def _bool(self, node: ast.BoolOp, local: dict[str, Value], depth: int) -> Value:
        flags: frozenset[str] = frozenset()
        unknown = False
        is_and = isinstance(node.op, ast.And)
        for part in node.values:
            v = self.value(part, local, depth)
            flags |= v.flags
            if not v.known:
                unknown = True
            elif bool(v.value) != is_and:
                return Value(v.value, v.flags)  # decides it whatever the rest
        return Value(UNKNOWN if unknown else is_and, flags)

    def _call(self, node: ast.Call, local: dict[str, Value], depth: int) -> Value:
        name = dotted(node.func)
        args = [self.value(a, local, depth) for a in node.args[:2]]
        if name.endswith(("environ.get", "getenv")) and args:
            return self._env(args[0].value, args[1].value if len(args) > 1 else None, node)
        if name in _PLATFORM_CALLS:
            return Value(_PLATFORM_CALLS[name])
        if name.endswith("cuda.is_available"):
            return Value(self.gpus_per_node > 0)
        if name.split(".")[-1] in _DEVICE_COUNTS:
            return Value(self.gpus_per_node)
        if name in _CASTS and len(args) == 1:
            if not args[0].known:
                return Value(UNKNOWN, args[0].flags)
            return Value(_CASTS[name](args[0].value), args[0].flags, args[0].env)
        if isinstance(node.func, ast.Name) and not node.args and not node.keywords:
            answer = self._answer(node.func.id, depth)
            if answer is not None:
                return answer
        if "bool" in name.split(".")[-1].lower() and len(args) == 1 and args[0].known:
            text = args[0].value  # `str2bool(...)`, `strtobool(...)`: a switch read from text
            if isinstance(text, str):
                return Value(text.strip().lower() in _TRUE, args[0].flags, args[0].env)
        return NOTHING

    def _answer(self, name: str, depth: int) -> Value | None:
        """A script function of no parameters that only returns an expression
        (`def _is_slurm_job() -> bool: return "SLURM_JOB_ID" in os.environ`): its value, read
        with its module's names; None for any other function."""
        fns = self.src.functions.get(name, [])
        if len(fns) != 1 or fns[0].args.args or fns[0].args.vararg or fns[0].args.kwarg:
            return None
        body = [s for s in fns[0].body if not (isinstance(s, ast.Expr) and constant(s.value))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            return None
        module = self.src.module_of[fns[0]].tree
        return self.value(body[0].value, self.scopes.get(module, {}), depth)

    def _env(self, key: object, default: object, read: ast.AST | None = None) -> Value:
        """The plan's value of a variable; else the script's default, marked as decided by the
        variable (`$NAME`, a flag of its own) where the read is a call that gives one."""
        if not isinstance(key, str):
            return NOTHING
        if key in self.env:
            return Value(str(self.env[key]), env=True)
        if read is None:
            return Value(default)
        self.flag_nodes.setdefault(ENV_FLAG + key, read)
        return Value(default, frozenset({ENV_FLAG + key}))

    # ---- asking ---------------------------------------------------------------------------

    def _settled(self, branch: ast.If) -> Value:
        """The test's value as the code reached it and as the code leaves its names (a helper
        that sets `args.distributed` later in the run counts); unknown when they disagree."""
        final = self.value_at(branch.test)
        seen = self.tests.get(branch)
        if seen is None or not seen.known:
            return final if seen is None else seen
        if final.known and bool(final.value) != bool(seen.value):
            return NOTHING
        return seen

    def off(self, node: ast.AST, depth: int = 3) -> Value | None:
        """When `node` is never reached under the plan: the test that keeps it off (its flags
        say which defaults did it); None when it is, or may be, reached. Cached by depth."""
        key = (node, depth)
        if key not in self._offs:
            self._offs[key] = self._off(node, depth)
        return self._offs[key]

    def _off(self, node: ast.AST, depth: int) -> Value | None:
        current, child = self.src.parents.get(node), node
        while current is not None:
            if isinstance(current, ast.If) and (test := self._settled(current)).known:
                taken = current.body if test.value else current.orelse
                if child is not current.test and child not in taken:
                    return test
            if isinstance(current, ast.BoolOp) and child in current.values:  # `a and f(x)`
                stops = isinstance(current.op, ast.And)  # an operand before it settles it
                for before in current.values[: current.values.index(child)]:
                    value = self.tests.get(before) or self.value_at(before)
                    if value.known and bool(value.value) is not stops:
                        return value
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
                callers = self.src.callers(current)
                if not depth or not callers:
                    return None
                flags: frozenset[str] = frozenset()
                for c in callers:  # one caller that may reach it is enough
                    if (o := self.off(c, depth - 1)) is None:
                        return None
                    flags |= o.flags
                return Value(False, flags)
            current, child = self.src.parents.get(current), current
        return None


def _small(value: object) -> bool:
    """A number or short text the evaluator computes with (`"a" * 10**10` is not built)."""
    if isinstance(value, bool | int | float):
        return abs(value) < 1e15
    return isinstance(value, str) and len(value) < 1000


def _convert(given: object, kind: str | None) -> object:
    numeric = isinstance(given, str) and kind in ("int", "float")
    return _try(_CASTS[kind], given) if numeric else given  # type: ignore[index]


def _try(cast, text: str) -> object:
    try:
        return cast(text)
    except ValueError:
        return UNKNOWN
