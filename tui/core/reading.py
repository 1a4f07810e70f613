"""Reading files the user hands us (job YAML, spec files, presets) without trusting them.

- At most `MAX_INPUT_BYTES` are read: a job YAML is a few kilobytes; a bigger file is refused
  before it is parsed (a 50 MB one took 24 s and 279 MB to parse), and so is `/dev/zero`.
- UTF-8 (with or without a BOM) and UTF-16/UTF-32 with a BOM (what Windows editors save) are
  read; anything else is one line naming the file and what the bytes look like. Only files and
  devices are opened: a named pipe or socket is one line, not a wait for a writer.
- YAML aliases are counted as they would expand: a file whose aliases grow it to more than
  `MAX_EXPANSION` times the nodes written in it (a "billion laughs" bomb: 342 bytes, 387 million
  strings) is refused before anything copies the shared structure out.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path
from typing import Any

import yaml

from tui.core.files import blocks

MAX_INPUT_BYTES = 1 << 20
"""1 MiB: the largest job YAML, spec file or preset read (documented in the README)."""
MAX_EXPANSION = 10
"""Aliases may make a YAML document at most this many times bigger than what is written."""
_SLACK = 1000  # small files may reuse an anchor a few times without being "10× bigger"

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class InputProblem(ValueError):
    """A file that cannot be read as text we accept; the message names the file and why."""


def read_text(path: Path | str) -> str:
    """The text of `path`: at most MAX_INPUT_BYTES, decoded as described above."""
    path = Path(path)
    try:
        # Opened without waiting: a named pipe would otherwise wait for a writer forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as f:
            kind = blocks(os.fstat(fd))
            if kind:
                raise InputProblem(f"{path}: {kind}, not a file; dtrain-tui reads only files")
            os.set_blocking(fd, True)
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as err:
        raise InputProblem(f"{path}: cannot read it ({err.strerror or err})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputProblem(
            f"{path}: larger than {MAX_INPUT_BYTES >> 20} MiB, the most dtrain-tui reads "
            "(a job YAML is a few KB); is it the right file?"
        )
    return decode(data, str(path))


def decode(data: bytes, where: str) -> str:
    """`data` as text: by its BOM, else UTF-8; else one line saying what it looks like."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError as err:
                raise InputProblem(
                    f"{where}: starts with a {encoding.upper()} byte-order mark but is not "
                    f"valid {encoding.upper()} (byte {err.start}); save it as UTF-8"
                ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputProblem(f"{where}: {_not_utf8(data, err)}; save it as UTF-8") from None
    if "\x00" in text:  # ASCII saved as UTF-16 without a BOM decodes as UTF-8 with NULs
        raise InputProblem(
            f"{where}: holds NUL bytes; it looks like UTF-16 without a byte-order mark; "
            "save it as UTF-8"
        )
    return text


def _not_utf8(data: bytes, err: UnicodeDecodeError) -> str:
    where = f"byte 0x{data[err.start]:02x} at offset {err.start}"
    if b"\x00" in data[:200]:
        return f"not UTF-8 ({where}); it looks like UTF-16 without a byte-order mark"
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return f"not UTF-8 ({where}) and not a text encoding dtrain-tui recognises"
    return f"not UTF-8 ({where}); it looks like Windows-1252 or Latin-1"


class _CountingLoader(yaml.SafeLoader):
    """SafeLoader that refuses documents whose aliases expand far beyond what is written."""

    def construct_document(self, node: yaml.Node) -> Any:
        _check_expansion(node, self.name)
        return super().construct_document(node)


def _check_expansion(root: yaml.Node, where: str) -> None:
    """Raise InputProblem when `root`, aliases expanded, has far more nodes than it is written
    with. Sizes are summed bottom-up once per distinct node, so the check itself stays small."""
    written: set[int] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if id(n) not in written:
            written.add(id(n))
            stack.extend(_children(n))
    limit = MAX_EXPANSION * len(written) + _SLACK
    sizes: dict[int, int] = {}
    todo: list[tuple[yaml.Node, bool]] = [(root, False)]
    while todo:
        n, ready = todo.pop()
        if id(n) in sizes:
            continue
        kids = _children(n)
        if not ready and kids:
            todo.append((n, True))
            todo.extend((k, False) for k in kids if id(k) not in sizes)
            continue
        sizes[id(n)] = 1 + sum(sizes[id(k)] for k in kids)
        if sizes[id(n)] > limit:
            raise InputProblem(
                f"{where}: its YAML aliases expand it to more than {MAX_EXPANSION}× what is "
                f"written ({len(written)} nodes); refusing it (an alias bomb?)"
            )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def load_yaml(text: str, where: str) -> Any:
    """`yaml.safe_load(text)` with the alias check; YAML errors are one line with the line."""
    loader = None
    try:
        loader = _CountingLoader(text)
        loader.name = where
        return loader.get_single_data()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(err, "problem", None) or "not valid YAML"
        raise InputProblem(f"{where}: not valid YAML{at} ({problem})") from None
    except RecursionError:
        raise InputProblem(f"{where}: nested too deeply to read") from None
    finally:
        if loader is not None:
            loader.dispose()


def read_yaml(path: Path | str) -> Any:
    """A YAML (or JSON) file the user gave: size-capped, decoded, alias-checked."""
    return load_yaml(read_text(path), str(path))
