"""Reading a script for the check without trusting it: only a regular file is opened (a FIFO
or a device such as /dev/zero is refused without blocking), at most `MOST_BYTES` are read, the
text must decode, and `ast` failures of every kind (a syntax error, nesting too deep for the
parser, NUL bytes) come back as one line (`ScriptProblem`), never a traceback."""

from __future__ import annotations

import ast
import codecs
import io
import os
import stat
import tokenize
import warnings
from pathlib import Path

from tui.scripts.facts import Module, ScriptProblem
from tui.scripts.syntax import dotted

MOST_BYTES = 512_000
"""The largest script read: a training script is a few hundred lines (tens of KB); Python's
parser takes up to about half a second on 512 KB of the densest code, and its tree tens of MB."""


def read_script(path: Path, most: int = MOST_BYTES) -> str:
    """The text of `path`; ScriptProblem (one line) when it is not a regular, readable, decodable
    file of at most `most` bytes."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise ScriptProblem(f"{path}: cannot read it: {err.strerror or err}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ScriptProblem(f"{path}: not a regular file ({_kind(info.st_mode)})")
    if info.st_size > most:
        raise ScriptProblem(f"{path}: {_size(info.st_size)}; the check reads up to {_size(most)}")
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, opening does not wait.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise ScriptProblem(f"{path}: cannot read it: {err.strerror or err}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ScriptProblem(f"{path}: not a regular file")
        data = handle.read(most + 1)
    if len(data) > most:
        raise ScriptProblem(f"{path}: more than {_size(most)}; the check reads up to that")
    return decode(data, str(path))


def decode(data: bytes, name: str) -> str:
    """Source bytes as Python reads them (a coding cookie, else UTF-8); ScriptProblem if not."""
    try:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError:  # no cookie and not UTF-8 in the first two lines
            encoding = "utf-8"
        codecs.lookup(encoding)
        return data.decode(encoding)
    except LookupError as err:
        raise ScriptProblem(f"{name}: {_one_line(err)}") from None
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ScriptProblem(
            f"{name}: line {line}: byte 0x{data[err.start]:02x} is not {err.encoding} text"
        ) from None


def parse(source: str, name: str) -> ast.Module:
    """The tree of `source`; ScriptProblem (one line) for whatever the parser refuses. What
    Python only warns about in the user's code (`"\\s"`, an invalid escape) is not said, nor
    turned into an error where warnings are errors: the script runs as it is."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, filename=name)
    except SyntaxError as err:
        where = f"line {err.lineno}: " if err.lineno else ""
        raise ScriptProblem(f"{name}: {where}{err.msg}") from None
    except (RecursionError, MemoryError):
        raise ScriptProblem(f"{name}: nested too deeply for Python to read") from None
    except ValueError as err:  # NUL bytes
        raise ScriptProblem(f"{name}: {_one_line(err)}") from None


def _one_line(err: Exception) -> str:
    return " ".join(str(err).split()) or type(err).__name__


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def _size(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n >= 100_000 else f"{n:,} bytes"


MOST_HELPERS = 30
MOST_HELPER_BYTES = 1_000_000
"""Helpers followed, at most: files and their bytes, a bound that keeps the whole check near a
second and does not depend on how busy the machine is (a CPU-time budget made the same script
follow its Trainer's module on one run and not on the next)."""


def helpers(script: Module, folder: Path) -> list[Module]:
    """The modules of the code folder `script` imports, and theirs, followed breadth-first
    (at most MOST_HELPERS files and MOST_HELPER_BYTES in all; one that cannot
    be read or parsed is left out: the check of the script does not depend on it)."""
    found: list[Module] = []
    seen: set[Path] = set()
    budget = MOST_HELPER_BYTES
    todo = [(script, folder / Path(script.file).parent if script.file else folder)]
    while todo and len(found) < MOST_HELPERS:
        module, here = todo.pop(0)
        for name, level in [*module.imported, *_reached(module)]:
            if len(found) >= MOST_HELPERS:
                break
            path = _local(name, level, here, folder)
            if path is None or path in seen:
                continue
            seen.add(path)
            try:
                size = path.stat().st_size
                if size > budget:
                    continue
                text = read_script(path)
                tree = parse(text, str(path))
            except (ScriptProblem, OSError):
                continue
            budget -= size
            helper = Module(tree, _relative(path, folder))
            found.append(helper)
            todo.append((helper, path.parent))
    return found


def _reached(module: Module) -> list[tuple[str, int]]:
    """Modules reached as attributes of an imported package (`tl.distributed.Trainer` after
    `import tensorlayer as tl`: `tensorlayer.distributed`, which the package's `__init__`
    imports, or which is simply there in a namespace package)."""
    reached: dict[str, None] = {}
    for node in module.nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Attribute):
            head, _, rest = dotted(node).partition(".")
            full = module.aliases.get(head)
            if full is not None and rest:
                reached[f"{full}.{rest}"] = None
    return [(name, 0) for name in reached]


def _local(name: str, level: int, here: Path, folder: Path) -> Path | None:
    """The file of the code folder that `import name` (relative by `level`) reads, if any."""
    parts = [p for p in name.split(".") if p]
    bases = [here] if level else [folder, here]
    if level:
        for _ in range(level - 1):
            bases = [bases[0].parent]
    for base in dict.fromkeys(bases):
        if not parts:
            candidate = base / "__init__.py"
            if candidate.is_file():
                return candidate.resolve()
            continue
        stem = base.joinpath(*parts)
        for candidate in (stem.with_suffix(".py"), stem / "__init__.py"):
            try:
                if candidate.is_file() and _inside(candidate, folder):
                    return candidate.resolve()
            except OSError:
                continue
    return None


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def _relative(path: Path, folder: Path) -> str:
    try:
        return str(path.resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(path)
