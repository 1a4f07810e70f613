"""The script's command-line parser, read from its source, and the plan's arguments tried on it.

`read_parser` finds what parses the command line (argparse, click, typer, fire; a framework's
own parser comes from its module through `readers`) and lists its arguments with their names,
how many values they take, their type, choices and defaults; `script_argv.simulate` then walks
the plan's argv through it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tui.scripts.facts import ScriptFacts
from tui.scripts.syntax import constant, dotted, keyword


@dataclass
class Arg:
    """One argument a parser accepts: option strings (none for a positional), where its value
    goes, how many values it takes ("none", "one", "optional", "many", "rest": all that
    follow), a type, choices."""

    names: tuple[str, ...]
    dest: str
    node: ast.AST | None = None
    takes: str = "one"
    kind: str | None = None
    """"int", "float" or None (any text)."""
    choices: tuple[object, ...] | None = None
    required: bool = False
    default: ast.AST | None = None
    flag_value: object = True
    """What a flag ("none") stores when given."""


@dataclass
class Parser:
    """What reads the command line: its style, the call that parses (the finding's line), its
    arguments, and how lenient it is."""

    style: str
    node: ast.AST | None
    args: list[Arg] = field(default_factory=list)
    open: bool = False
    """It takes options it does not list (parse_known_args, **kwargs, options made in a loop)."""
    abbrev: bool = False
    """A unique prefix of an option is that option (argparse's allow_abbrev)."""
    prefixes: tuple[str, ...] = ()
    """Options starting with these are accepted whatever follows (`--trainer.`)."""
    namespaces: set[str] = field(default_factory=set)
    """Names the parsed result is bound to (`args`)."""
    dashes: bool = False
    """`--a-b` and `--a_b` are the same option (fire, jsonargparse)."""
    function: ast.AST | None = None
    """The function whose parameters are the arguments (click, typer, fire)."""
    overrides: bool = False
    """Words `key=value` are settings, not positionals (hydra)."""
    file_arg: bool = False
    """A lone `args.json` (or .yaml) is read as a file of arguments (HfArgumentParser)."""


@dataclass
class Outcome:
    """The plan's argv through a parser: what it rejects, and each dest's given value."""

    rejected: list[str] = field(default_factory=list)
    given: dict[str, object] = field(default_factory=dict)


Reader = Callable[[ScriptFacts], Parser | None]


def read_parser(src: ScriptFacts, readers: Sequence[Reader] = ()) -> Parser | None:
    """The parser of the script's command line, or None when nothing reads it (or what reads
    it cannot be known from the source)."""
    for reader in (*readers, _argparse, _click, _typer, _fire, _hydra, _absl):
        parser = reader(src)
        if parser is not None:
            return parser
    return None


# ---------------------------------------------------------------------------------------------
# argparse


def _argparse(src: ScriptFacts) -> Parser | None:
    calls = src.find("parse_args", "parse_known_args")
    calls = [
        c for c in calls if dotted(c.func).split(".")[-1] in ("parse_args", "parse_known_args")
    ]
    if not calls or not src.find("ArgumentParser"):
        return None
    if all(_given_list(c) for c in calls):
        return None  # parses a list of its own, not the command line
    calls.sort(key=lambda c: src.file(c) != src.modules[0].file)
    parse = next(c for c in calls if not _given_list(c))
    parser = Parser("argparse", parse, abbrev=True)
    parser.open = dotted(parse.func).endswith("parse_known_args")
    for made in src.find("ArgumentParser"):
        if constant(keyword(made, "allow_abbrev")) is False:
            parser.abbrev = False
    for call in src.find("add_argument", *_add_argument_names(src)):
        arg = argparse_arg(call)
        if arg is None:
            parser.open = True
            continue
        if _conditional(src, call):  # on one torch version, or when a library is missing
            arg.required = False
            arg.takes = "optional" if arg.takes == "one" else arg.takes
        parser.args.append(arg)
    if src.find("add_subparsers"):
        parser.open = True  # sub-commands: roughly, anything may belong to one
    parser.namespaces = _bound_to(src, parse)
    return parser


def _add_argument_names(src: ScriptFacts) -> list[str]:
    """Plain names bound to a parser's add_argument (`arg = parser.add_argument`, then
    `arg('--fold', type=int)`)."""
    return [
        t.id
        for stmt in src.assignments
        if isinstance(stmt.value, ast.Attribute) and stmt.value.attr == "add_argument"
        for t in stmt.targets
        if isinstance(t, ast.Name)
    ]


def _conditional(src: ScriptFacts, node: ast.AST) -> bool:
    """Made only under an `if` of its function (`if TORCH_MAJOR == 1:`, `if not has_backend():`):
    what the job's machine decides, so it cannot be held against the plan's command."""
    current = src.parents.get(node)
    while current is not None and not isinstance(current, ast.FunctionDef | ast.Module):
        if isinstance(current, ast.If) and "__name__" not in ast.dump(current.test):
            return True
        current = src.parents.get(current)
    return False


def handed_elsewhere(src: ScriptFacts, known: Sequence[str] = ()) -> bool:
    """The parser goes to a library's `add_*()` that adds arguments nobody here can list
    (`known`: those a framework module lists)."""
    made: set[str] = set()
    for call in src.find("ArgumentParser"):
        parent = src.parents.get(call)
        if isinstance(parent, ast.Assign):
            made |= {t.id for t in parent.targets if isinstance(t, ast.Name)}
    for name, call in src.calls:
        last = name.split(".")[-1]
        if last in (*known, "add_argument_group") or last in src.functions:
            continue
        if not last.startswith("add"):
            continue
        if any(isinstance(a, ast.Name) and a.id in made for a in call.args):
            return True
    return False


def _given_list(call: ast.Call) -> bool:
    """`parse_args([...])` or `parse_args(args=x)`: not sys.argv (None and sys.argv[1:] are)."""
    value = call.args[0] if call.args else keyword(call, "args")
    if value is None or (isinstance(value, ast.Constant) and value.value is None):
        return False
    return "argv" not in ast.dump(value)


def _bound_to(src: ScriptFacts, call: ast.AST, depth: int = 3) -> set[str]:
    parent = src.parents.get(call)
    names: set[str] = set()
    while isinstance(parent, ast.Subscript | ast.IfExp):  # parse_known_args()[0] if known else …
        parent = src.parents.get(parent)
    if isinstance(parent, ast.Assign | ast.AnnAssign):
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        for target in targets:
            first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
            if isinstance(first, ast.Name):
                names.add(first.id)
    fn = src.function_of(call)
    returned = isinstance(parent, ast.Return) or (
        fn is not None and any(_returns(fn, name) for name in names)
    )
    if returned:  # `return parser.parse_args()`, or `args = …; return args`
        for caller in src.callers(fn) if fn and depth else ():
            names |= _bound_to(src, caller, depth - 1)
    return names | {"args"}


def _returns(fn: ast.AST, name: str) -> bool:
    """`fn` returns the name `name` itself (`return args`)."""
    return any(
        isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id == name
        for n in ast.walk(fn)
    )


_TYPES = {"int": "int", "float": "float"}


def argparse_arg(call: ast.Call) -> Arg | None:
    """An `add_argument(...)`; None when its names are not literal (made in a loop)."""
    names = [constant(a) for a in call.args]
    if not names or not all(isinstance(n, str) for n in names):
        return None
    strings: tuple[str, ...] = tuple(n for n in names if isinstance(n, str))
    action = constant(keyword(call, "action"))
    nargs = constant(keyword(call, "nargs"))
    dest = constant(keyword(call, "dest"))
    options = tuple(n for n in strings if n.startswith("-"))
    if not isinstance(dest, str):
        longs = [n for n in options if n.startswith("--")] or list(options) or list(strings)
        dest = longs[0].lstrip("-").replace("-", "_")
    arg = Arg(options, dest, call, default=keyword(call, "default"))
    if action in ("store_true", "store_false", "store_const", "count", "help", "version"):
        arg.takes = "none"
        arg.flag_value = action != "store_false"
        if arg.default is None and action in ("store_true", "store_false"):
            arg.default = ast.Constant(action == "store_false")
    elif nargs == "?":
        arg.takes = "optional"
    elif nargs in ("*", "+") or (isinstance(nargs, int) and nargs > 1):
        arg.takes = "many"
    elif nargs == "..." or dotted(keyword(call, "nargs") or ast.Constant(None)).endswith(
        "REMAINDER"
    ):
        arg.takes = "rest"  # argparse.REMAINDER: every word after it, options included
    kind = keyword(call, "type")
    if isinstance(kind, ast.Name):
        arg.kind = _TYPES.get(kind.id)
    choices = keyword(call, "choices")
    if isinstance(choices, ast.List | ast.Tuple | ast.Set):
        values = [constant(e) for e in choices.elts]
        if all(v is not None for v in values):
            arg.choices = tuple(values)
    if options:
        arg.required = constant(keyword(call, "required")) is True
    else:
        arg.required = nargs not in ("?", "*") and keyword(call, "default") is None
    return arg


# ---------------------------------------------------------------------------------------------
# click, typer, fire: the function's own parameters


def _click(src: ScriptFacts) -> Parser | None:
    for fns in src.functions.values():
        for fn in fns:
            decorators = [dotted(d.func) for d in fn.decorator_list if isinstance(d, ast.Call)]
            if not any(d.endswith(("click.command", ".command")) for d in decorators):
                continue
            if not src.imports_any("click"):
                return None
            parser = Parser("click", _invocation(src, fn) or fn, function=fn)
            for d in fn.decorator_list:
                if not isinstance(d, ast.Call):
                    continue
                name = dotted(d.func)
                if "context_settings" in {k.arg for k in d.keywords}:
                    parser.open = True
                if name.endswith(("click.group", ".group")):
                    parser.open = True
                if name.endswith(".option") or name.endswith(".argument"):
                    arg = _click_arg(d, name.endswith(".argument"))
                    if arg is None:
                        parser.open = True
                    else:
                        parser.args.append(arg)
            return parser
    return None


def _click_arg(call: ast.Call, positional: bool) -> Arg | None:
    names = [constant(a) for a in call.args]
    if not names or not all(isinstance(n, str) for n in names):
        return None
    strings = [str(n) for n in names]
    options = tuple(s for part in strings for s in part.split("/") if s.startswith("-"))
    dest = next((s for s in strings if not s.startswith("-")), None) or max(
        options, key=len
    ).lstrip("-").replace("-", "_")
    arg = Arg(() if positional else options, dest, call, default=keyword(call, "default"))
    if constant(keyword(call, "is_flag")) is True or any("/" in s for s in strings):
        arg.takes = "none"
    if constant(keyword(call, "multiple")) is True or constant(keyword(call, "nargs")) == -1:
        arg.takes = "many"
    kind = keyword(call, "type")
    arg.kind = _TYPES.get(dotted(kind).split(".")[-1].lower()) if kind is not None else None
    required = constant(keyword(call, "required"))
    arg.required = required is True or (positional and required is not False and not arg.default)
    return arg


def _typer(src: ScriptFacts) -> Parser | None:
    runs = src.find("typer.run")
    apps = [c for c in src.find("command") if dotted(c.func).endswith(".command")]
    if not src.imports_any("typer") or not (runs or apps):
        return None
    if runs:
        fn = _function(src, runs[0].args[0] if runs[0].args else None)
        node: ast.AST = runs[0]
    else:
        commands = [fn for fns in src.functions.values() for fn in fns if _decorated(fn, apps)]
        if len(commands) != 1:
            return Parser("typer", apps[0] if apps else None, open=True)
        fn, node = commands[0], commands[0]
    if fn is None:
        return None
    parser = Parser("typer", node, function=fn)
    for param, default in _params(fn):
        value = default
        names: tuple[str, ...] = ()
        positional = default is None
        if isinstance(default, ast.Call) and dotted(default.func).split(".")[-1] in (
            "Option",
            "Argument",
        ):
            positional = dotted(default.func).endswith("Argument")
            literal = [constant(a) for a in default.args[1:]]
            names = tuple(n for n in literal if isinstance(n, str))
            value = default.args[0] if default.args else keyword(default, "default")
            if isinstance(value, ast.Constant) and value.value is Ellipsis:
                value = None
        dashed = "--" + param.arg.replace("_", "-")
        kind = _annotation(param)
        arg = Arg(() if positional else (names or (dashed,)), param.arg, param, default=value)
        arg.kind = kind if kind in ("int", "float") else None
        if kind == "bool" and not positional:
            arg.takes = "none"
            arg.names = (*arg.names, "--no-" + param.arg.replace("_", "-"))
        arg.required = value is None
        parser.args.append(arg)
    return parser


def _fire(src: ScriptFacts) -> Parser | None:
    calls = src.find("fire.Fire", "Fire")
    if not calls or not src.imports_any("fire"):
        return None
    call = calls[0]
    fn = _function(src, call.args[0] if call.args else None)
    if fn is None:
        return Parser("fire", call, open=True)  # a module, a class or a dict: commands
    parser = Parser("fire", call, dashes=True, function=fn)
    parser.open = fn.args.kwarg is not None
    for param, default in _params(fn):
        arg = Arg(("--" + param.arg,), param.arg, param, default=default)
        arg.takes = "optional"  # `--flag` alone is True
        arg.required = default is None
        parser.args.append(arg)
    return parser


def _function(src: ScriptFacts, node: ast.AST | None):
    if isinstance(node, ast.Name):
        fns = src.functions.get(node.id)
        return fns[0] if fns else None
    return None


def _decorated(fn: ast.AST, decorators: list[ast.Call]) -> bool:
    return any(d in decorators for d in getattr(fn, "decorator_list", ()))


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef):
    """(parameter, default or None) of `fn`, self and *args left out."""
    args = [*fn.args.posonlyargs, *fn.args.args]
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    pairs = [(a, d) for a, d in zip(args, defaults, strict=True) if a.arg not in ("self", "cls")]
    pairs += list(zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True))
    return pairs


def _annotation(param: ast.arg) -> str | None:
    note = param.annotation
    return note.id if isinstance(note, ast.Name) else None


def _invocation(src: ScriptFacts, fn: ast.AST) -> ast.AST | None:
    return next(iter(src.callers(fn)), None)


_HYDRA_FLAGS = (
    "--config-name", "-cn", "--config-path", "-cp", "--config-dir", "-cd", "--multirun", "-m",
    "--cfg", "-c", "--package", "-p", "--resolve", "--run", "-r", "--info", "-i", "--help", "-h",
    "--hydra-help", "--version", "--shell-completion", "-sc", "--experimental-rerun",
)  # fmt: skip


def _hydra(src: ScriptFacts) -> Parser | None:
    """`@hydra.main(...)`: overrides are `key=value` words; its own flags are the only options."""
    for fns in src.functions.values():
        for fn in fns:
            for d in fn.decorator_list:
                if isinstance(d, ast.Call) and dotted(d.func).endswith("hydra.main"):
                    # Hydra's argparse runs where the decorated function is called (`main()`)
                    called = [c for c in src.callers(fn) if isinstance(c, ast.Call)]
                    parser = Parser("hydra", called[0] if called else d, overrides=True)
                    parser.args = [
                        Arg((flag,), flag.lstrip("-"), takes="optional") for flag in _HYDRA_FLAGS
                    ]
                    return parser
    return None


_ABSL_OWN = (
    "flagfile",
    "undefok",
    "help",
    "helpfull",
    "helpshort",
    "logtostderr",
    "v",
    "verbosity",
)


def _absl(src: ScriptFacts) -> Parser | None:
    """absl flags (`flags.DEFINE_*`, `app.run(main)`; `tf.app` is the same): an
    undefined --flag stops the program ("Unknown command line flag")."""
    runs = [c for name, c in src.calls if name.endswith("app.run")]
    defines = [(n, c) for n, c in src.calls if n.split(".")[-1].startswith("DEFINE")]
    if not runs or not defines:
        return None
    parser = Parser("absl", runs[0], namespaces={"FLAGS"})
    for name, call in defines:
        flag = constant(keyword(call, "name", 0))
        if not isinstance(flag, str):
            parser.open = True
            continue
        default = keyword(call, "default", 1)
        if name.endswith("DEFINE_bool") or name.endswith("DEFINE_boolean"):
            parser.args.append(
                Arg((f"--{flag}", f"--no{flag}"), flag, call, "optional", default=default)
            )
        else:
            kind = {"DEFINE_integer": "int", "DEFINE_float": "float"}.get(name.split(".")[-1])
            parser.args.append(Arg((f"--{flag}",), flag, call, kind=kind, default=default))
    parser.args += [Arg((f"--{own}",), own, takes="optional") for own in _ABSL_OWN]
    parser.prefixes = ("--undefok",)
    return parser
