"""Options an argparse parser makes in a loop over a config file of the code folder:

    config = load_config("./config/config.yaml")
    for k, v in config.items():
        parser.add_argument(f"--{k}", default=v, type=type(v))

Each key of that file is an option whose default is its value, so the parser is no longer open
(taking whatever it is given): the plan's arguments are checked against those keys, and the
defaults are followed like any other."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from tui.scripts.args import Arg, Parser, argparse_arg
from tui.scripts.facts import ScriptFacts
from tui.scripts.syntax import constant, dotted

_MOST_BYTES = 200_000
_TYPES = {int: "int", float: "float"}


def config_loop_args(src: ScriptFacts, parser: Parser, folder: Path | None) -> None:
    """Add the options a loop over a config file makes to `parser`; it stays open when any
    option's name cannot be known (no file, a value that is not a plain one)."""
    if parser.style != "argparse" or folder is None:
        return
    unknown = [c for c in src.find("add_argument") if argparse_arg(c) is None]
    files: dict[Path, object] = {}  # each file read once, however many loops walk it
    made = [_from_config(src, call, folder, files) for call in unknown]
    for args in made:
        parser.args += args or []
    leniently = dotted(getattr(parser.node, "func", parser.node)).endswith("parse_known_args")
    if unknown and all(made) and not leniently and not src.find("add_subparsers"):
        parser.open = False


def _from_config(
    src: ScriptFacts, call: ast.Call, folder: Path, files: dict[Path, object]
) -> list[Arg] | None:
    """The options `call` makes, one per key of the file its loop walks; None when unknown."""
    name = call.args[0] if call.args else None
    loop = src.parents.get(src.statement(call))
    if not (isinstance(name, ast.JoinedStr) and isinstance(loop, ast.For)):
        return None
    head = constant(name.values[0]) if len(name.values) == 2 else None
    key = getattr(name.values[-1], "value", None)
    target = loop.target.elts[0] if isinstance(loop.target, ast.Tuple) else None
    if not (isinstance(head, str) and head.startswith("-") and isinstance(target, ast.Name)):
        return None
    if not (isinstance(key, ast.Name) and key.id == target.id):
        return None  # f"--{prefix}{k}" or a name other than the loop's key
    config = _loaded(src, loop.iter, folder, files)
    if not isinstance(config, dict) or not config:
        return None
    out = []
    for option_key, value in config.items():
        if not isinstance(value, str | int | float | bool) and value is not None:
            return None
        option = f"{head}{option_key}"
        arg = Arg(
            (option,), option.lstrip("-").replace("-", "_"), call, default=ast.Constant(value)
        )
        arg.kind = _TYPES.get(type(value))
        out.append(arg)
    return out


def _loaded(src: ScriptFacts, walked: ast.AST, folder: Path, files: dict[Path, object]) -> object:
    """What `config.items()` walks, where `config` is assigned from a call given a literal
    .yaml / .yml / .json path of the code folder (read here as YAML, which JSON is)."""
    if not (isinstance(walked, ast.Call) and isinstance(walked.func, ast.Attribute)):
        return None
    holder = walked.func.value
    if not (walked.func.attr == "items" and isinstance(holder, ast.Name)):
        return None
    scope = src.function_of(walked) or src.module_of[walked].tree
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == holder.id for t in node.targets
        ):
            for n in ast.walk(node.value):
                path = constant(n) if isinstance(n, ast.Constant) else None
                if isinstance(path, str) and path.endswith((".yaml", ".yml", ".json")):
                    try:
                        file = (folder / path).resolve()
                    except (OSError, ValueError):
                        return None
                    if file not in files:
                        files[file] = _read(folder, file)
                    return files[file]
    return None


def _read(folder: Path, file: Path) -> object:
    """The file's contents, if it lies inside the code folder and is small; None otherwise."""
    if not file.is_relative_to(folder.resolve()) or not file.is_file():
        return None
    if file.stat().st_size > _MOST_BYTES:
        return None
    try:
        return yaml.safe_load(file.read_text(encoding="utf-8", errors="replace"))
    except yaml.YAMLError:
        return None
