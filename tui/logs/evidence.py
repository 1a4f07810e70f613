"""What the doctor reads of each log, with bounded memory: its head, the region around its first
error and its tail, each line numbered as in the file; then one stream of lines per rank.

A log is never read into memory whole. A small one is read at once; a large one is read in place
a megabyte at a time (`FileView`, never mapped whole) and searched with `bytes.find` (C speed)
for error-looking words, each candidate line is asked
whether it really is an error (`doctor_rules.is_error`), and only the first real one's region
is decoded, next to the head and the tail, where launchers print their summaries. A line longer
than `MAX_LINE` is cut (a 2 GB line costs no more than a short one).

Ranks come from the file name (Azure ML's `std_log_process_N.txt`, see `names`) or from the
prefix each line carries: `[rank3]:`, `[default3]:`, `[1,3]<stderr>:`, `[3]<stderr>:`, srun's
`3: `, NCCL's `host:pid:tid [3]`; actor prefixes `(Worker pid=…)` and quoting bars are removed.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tui.core.files import blocks
from tui.logs.doctor_rules import is_error
from tui.logs.names import rank_logs

SMALL = 64 << 10
"""A log up to this size is read whole (then dropped once its lines are kept)."""
HEAD = 2 << 10
TAIL = 16 << 10
REGION_BEFORE, REGION_AFTER = 2 << 10, 8 << 10
SCAN_LIMIT = 64 << 20
"""How far into a large log the first error is searched for."""
COUNT_LIMIT = 256 << 20
"""Lines are numbered from the start up to here; past it (a log of gigabytes) counting every
newline would cost seconds, so the tail's lines are numbered from the end: -1 is the last."""
MAX_LINE = 2000
MAX_CANDIDATES = 400
"""Error-looking lines checked before giving up on finding the first real one."""

_TOKENS = (b"rror", b"Traceback")
"""Words an error a rank survives long enough to go on logging has (`…Error`, a traceback): each
is one `bytes.find` pass over the middle of a large log. What kills a process (a signal, a kill)
is at its end, in the tail."""


class Evidence(NamedTuple):
    """Where the doctor read it: the log's name, the line number (from 1), the line. (A named
    tuple, not a frozen dataclass: one is made for every line read, and a frozen dataclass's
    `__init__` costs several times a tuple's.)"""

    log: str
    line: int
    text: str

    @property
    def at(self) -> str:
        """`log:line`; a negative line counts from the end (-1: the last line of a huge log)."""
        return f"{self.log}:{self.line}"

    def to_json(self) -> dict[str, object]:
        return {"at": self.at, "log": self.log, "line": self.line, "text": self.text}


@dataclass
class Excerpt:
    """The lines the doctor keeps of one log: `(line number, text)`, in order; `binary` when the
    file is not text at all; `size` in bytes."""

    lines: list[tuple[int, str]]
    size: int = 0
    binary: bool = False


class Line(NamedTuple):
    """One line of a rank's stream (a named tuple for the reason `Evidence` is one)."""

    text: str
    """The line without its rank prefix."""
    where: Evidence
    order: int
    """Position among every line read (meaningful within one log)."""


@dataclass
class Stream:
    """One rank's lines (rank None: the launcher's own output, or lines with no rank)."""

    rank: int | None
    lines: list[Line] = field(default_factory=list)
    mtime: float | None = None


# ---------------------------------------------------------------------------------------------
# Reading files


def load_path(path: Path) -> tuple[dict[str, Excerpt], dict[str, float]]:
    """The logs in a file or folder, excerpted: `{name: Excerpt}` (names relative to the folder,
    the way Azure ML names them) and their modification times. Raises OSError for a path that
    cannot be read."""
    path = Path(path)
    if path.is_file():
        return {path.name: read_excerpt(path)}, {path.name: path.stat().st_mtime}
    if not path.is_dir():
        kind = blocks(path.stat()) if path.exists() else None  # never opened: it would wait
        raise FileNotFoundError(f"{path}: {kind or 'no such file or folder'}")
    logs: dict[str, Excerpt] = {}
    mtimes: dict[str, float] = {}
    for file in sorted(path.rglob("*")):
        name = file.relative_to(path).as_posix()
        if not file.is_file() or file.suffix not in (".txt", ".log", "") or "/." in f"/{name}":
            continue
        stat = file.stat()
        if stat.st_size == 0:
            continue
        logs[name] = read_excerpt(file)
        mtimes[name] = stat.st_mtime
    return logs, mtimes


def read_excerpt(file: Path) -> Excerpt:
    with file.open("rb") as f:
        size = f.seek(0, 2)
        f.seek(0)
        if size <= SMALL:
            return excerpt(f.read())
        return excerpt(FileView(f.fileno(), size))


class FileView:
    """A large log read in place: the few `bytes` operations the excerpt needs (`len`, slices,
    `find`, `rfind`, `count`), each done with reads of at most `CHUNK` bytes, so memory and
    address space stay bounded whatever the size and however many logs are read at once (a
    3 GB log mapped whole did not fit a 2 GB address-space limit; 24 mapped by the threads of
    one job's doctor did not either)."""

    CHUNK = 1 << 20

    def __init__(self, fd: int, size: int) -> None:
        self.fd = fd
        self.size = size
        self.marks: list[tuple[int, int]] = [(0, 0)]
        """`(offset, newlines before it)`, ascending: counted on the chunks `find_any` reads
        anyway, so the tail's line numbers cost no second pass over the file."""

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, span: slice) -> bytes:
        start, stop, _ = span.indices(self.size)
        return os.pread(self.fd, max(0, stop - start), start) if stop > start else b""

    def find(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        end = self.size if end is None else min(end, self.size)
        step = 64 << 10  # the next newline or candidate is often near: grow to CHUNK
        while start < end:
            stop = min(end, start + step + len(sub) - 1)
            at = self[start:stop].find(sub)
            if at >= 0:
                return start + at
            start += step
            step = min(self.CHUNK, step * 4)
        return -1

    def find_any(self, subs: tuple[bytes, ...], start: int, end: int) -> int:
        """The first offset of any of `subs` in `[start, end)`, each chunk read once for all of
        them (and its newlines counted while it is at hand)."""
        end = min(end, self.size)
        if 0 < start - self.marks[-1][0] <= self.CHUNK:
            self.newlines_before(start)  # a candidate line read past: keep counting
        overlap = max(len(sub) for sub in subs) - 1
        step = 64 << 10
        while start < end:
            chunk = self[start : min(end, start + step + overlap)]
            hits = [at for sub in subs if 0 <= (at := chunk.find(sub)) < step]
            if hits:
                self._counted(start, chunk, min(hits))
                return start + min(hits)
            self._counted(start, chunk, min(step, len(chunk)))
            start += step
            step = min(self.CHUNK, step * 4)
        return -1

    MARK = 64 << 10
    """Marks are set this far apart: a count from the nearest one reads at most this much."""

    def _counted(self, start: int, chunk: bytes, upto: int) -> None:
        at, newlines = self.marks[-1]
        if start != at:
            return
        for begin in range(0, upto, self.MARK):
            stop = min(upto, begin + self.MARK)
            newlines += chunk.count(b"\n", begin, stop)
            self.marks.append((start + stop, newlines))

    def newlines_before(self, offset: int) -> int:
        """Newlines in `[0, offset)`, counted on from the nearest mark before it."""
        at, newlines = self.marks[bisect.bisect_right(self.marks, (offset, 1 << 62)) - 1]
        newlines += _newlines_read(self, at, offset)
        if offset > self.marks[-1][0]:
            self.marks.append((offset, newlines))
        return newlines

    def rfind(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        end = self.size if end is None else min(end, self.size)
        while end > start:
            begin = max(start, end - self.CHUNK - len(sub) + 1)
            at = self[begin:end].rfind(sub)
            if at >= 0:
                return begin + at
            end = begin + len(sub) - 1 if begin > start else start
        return -1


def excerpt(data: bytes | FileView | str) -> Excerpt:
    """Head, first-error region and tail of one log's bytes (all of it when small)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    size = len(data)
    if _looks_binary(data[:8192]):
        return Excerpt([], size, binary=True)
    if size <= SMALL:
        return Excerpt(_numbered(bytes(data), 1), size)
    spans = [(0, HEAD)]
    first = _first_error(data, min(size, SCAN_LIMIT))
    if first is not None:
        spans.append((max(0, first - REGION_BEFORE), first + REGION_AFTER))
    spans.append((max(0, size - TAIL), size))
    return Excerpt(_read_spans(data, spans), size)


_TEXT_BYTES = bytes(range(0x20, 0x100)) + b"\t\n\r\x1b\x0c\x08\x07"


def _looks_binary(head: bytes) -> bool:
    """More than one byte in twenty a control character no log prints: not text."""
    head = bytes(head)
    return bool(head) and len(head.translate(None, _TEXT_BYTES)) * 20 > len(head)


def _first_error(data, limit: int) -> int | None:
    """The offset of the first line that is a real error, found token by token."""
    at = _find_any(data, 0, limit)
    for _ in range(MAX_CANDIDATES):
        if at < 0:
            return None
        start = data.rfind(b"\n", max(0, at - MAX_LINE), at) + 1
        end = data.find(b"\n", at, min(limit, at + MAX_LINE))
        end = end if end >= 0 else min(limit, at + MAX_LINE)
        if is_error(_clean(bytes(data[start:end]).decode("utf-8", "replace"))):
            return start
        at = _find_any(data, end + 1, limit)
    return None


def _find_any(data, start: int, end: int) -> int:
    """The first offset of any of `_TOKENS` in `data[start:end]`, -1: none."""
    if isinstance(data, FileView):
        return data.find_any(_TOKENS, start, end)
    found = [p for t in _TOKENS if (p := data.find(t, start, end)) >= 0]
    return min(found) if found else -1


def _read_spans(data, spans: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """The whole lines in each byte span, numbered by counting newlines before it (a line
    longer than its span is kept cut; the pieces of one line are joined with ` … `)."""
    out: dict[int, str] = {}
    counted_to, newlines = 0, 0
    size = len(data)
    for start, end in sorted(spans):
        end = min(end, size)
        if start > 0:  # start at the next whole line (a line longer than the span: cut)
            nl = data.find(b"\n", start - 1, end)
            start = nl + 1 if nl >= 0 else start
        if end < size:  # end at the last whole line
            nl = data.rfind(b"\n", start, end)
            end = nl + 1 if nl >= 0 else end
        if start >= end:
            continue
        if start <= COUNT_LIMIT:
            newlines += _newlines(data, counted_to, start)
            counted_to = start
            first = newlines + 1
        else:  # numbered from the end
            ending = 0 if data[size - 1 : size] == b"\n" else 1
            first = -(_newlines(data, start, size) + ending)
        for number, text in _numbered(bytes(data[start:end]), first):
            out[number] = f"{out[number]} … {text}" if number in out else text
    return sorted(out.items(), key=lambda item: (item[0] < 0, item[0]))


def _newlines(data, start: int, end: int) -> int:
    """Newlines in `data[start:end]` (a `FileView` has no `count`: what its scan for the first
    error counted already is not counted again)."""
    if isinstance(data, bytes):
        return data.count(b"\n", start, end)
    return data.newlines_before(end) - data.newlines_before(start)


def _newlines_read(data: FileView, start: int, end: int, chunk: int = FileView.CHUNK) -> int:
    """Newlines in `data[start:end]`, read a chunk at a time."""
    return sum(data[i : min(end, i + chunk)].count(b"\n") for i in range(start, end, chunk))


def _numbered(chunk: bytes, first: int) -> list[tuple[int, str]]:
    lines = chunk.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return [(first + i, _cut(raw)) for i, raw in enumerate(lines)]


def _cut(raw: bytes) -> str:
    """A line as text, at most `MAX_LINE` characters: a longer one keeps its start and end."""
    if len(raw) > MAX_LINE * 4:
        raw = raw[: MAX_LINE * 2] + b" \xe2\x80\xa6 " + raw[-MAX_LINE * 2 :]
    text = _clean(raw.decode("utf-8", "replace"))
    if len(text) > MAX_LINE:
        text = f"{text[: MAX_LINE // 2]} … {text[-MAX_LINE // 2 :]}"
    return text


_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _clean(line: str) -> str:
    # A progress bar redrawn with `\r` shows its last state; line numbers count `\n`.
    line = line.rstrip("\r").rsplit("\r", 1)[-1]
    if line.isprintable():
        return line.rstrip()  # no escape, no control character (most lines): nothing to remove
    return _CONTROL.sub("", _ANSI.sub("", line)).rstrip()


# ---------------------------------------------------------------------------------------------
# Ranks

_STAMP = re.compile(
    r"^(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[.,\d]*Z? |[A-Z][a-z]{2} +\d+ \d\d:\d\d:\d\d )"
)
_QUOTE = re.compile(r"^\s*(?:\| |> ?)")  # `        | …` (a tool's indented log), `> ` quoting
_QUOTE_STARTS = frozenset(" \t|>")
_PREFIXES = (
    re.compile(r"^(?:[\w.-]+/\d+ )?\[(?:rank|default|RANK )(\d{1,5})\]:\s?"),
    re.compile(r"^\[\d+,(\d{1,5})\]<(?:stdout|stderr)>:\s?"),  # mpirun --tag-output
    re.compile(r"^\[(\d{1,5})\]<(?:stdout|stderr)>:\s?"),  # a per-rank tag without a job id
    re.compile(r"^(?:\[\d+\] )?\[dtrain-tui rank (\d{1,5})\] "),
)
_ACTOR = re.compile(r"^\((?:[\w.]+ )?pid=\d+(?:, ip=[\d.]+)?\)\s?")  # `(Worker pid=12, ip=…) `
_DEVICE = re.compile(r"^([\w.-]+:\d+):\d+ \[(\d{1,3})\] ")  # `host:pid:tid [3] NCCL …`
_NCCL_RANK = re.compile(
    r"^([\w.-]+:\d+):\d+ \[\d+\] NCCL INFO .*\bcomm 0x[0-9a-f]+ rank (\d+) nranks"
)
"""NCCL's own word on a process's global rank (`comm 0x… rank 13 nranks 16`): the `[N]` in its
prefix is only the GPU's index on its node."""
_ANY_PREFIX = re.compile(
    r"[\w.-]+/\d+ \[|\[(?:rank|default|RANK |\d+,\d+\]<|\d+\]<|\d+\] \[dtrain-tui|dtrain-tui)|"
    r"\((?:[\w.]+ )?pid=|[\w.-]+:\d+:\d+ \["
)
"""What any of the rank or actor prefixes above starts with: a line without it (most lines of a
long log) is read past with this one match instead of seven."""
_NUMBER_PREFIX = re.compile(r"^\s?(\d{1,5}): ")  # srun --label, `N:` consoles
_CONSOLE_NOISE = re.compile(r"^\[\d+\] ")  # a pasted terminal's `[80746] ` line numbers


def streams(
    logs: Mapping[str, str | Excerpt], mtimes: Mapping[str, float]
) -> tuple[dict[int | None, Stream], dict[str, Excerpt]]:
    """One stream of lines per rank across every log, and the excerpts they came from."""
    excerpts = {n: t if isinstance(t, Excerpt) else excerpt(t) for n, t in logs.items()}
    by_name = {r.name: r.rank for r in rank_logs(excerpts)}
    out: dict[int | None, Stream] = {}
    order = 0
    for name, ex in excerpts.items():
        own = by_name.get(name)
        numbered = own is None and _uses_number_prefix(t for _, t in ex.lines)
        ranks = _nccl_ranks(ex.lines) if own is None else {}
        mtime = mtimes.get(name)
        fed: set[int | None] = set()  # the streams this log fed (each takes its mtime once)
        stream: Stream | None = None
        for number, line in ex.lines:
            rank, content = split_prefix(line, numbered, ranks)
            if rank is None:
                rank = own
            if stream is None or rank != stream.rank:
                stream = out.setdefault(rank, Stream(rank))
                fed.add(rank)
            stream.lines.append(Line(content, Evidence(name, number, line[:500]), order))
            order += 1
        for rank in fed if mtime is not None else ():
            out[rank].mtime = max(out[rank].mtime or 0.0, mtime)
    return out, excerpts


def _nccl_ranks(lines: list[tuple[int, str]]) -> dict[str, int]:
    """`host:pid` → global rank, from NCCL's INFO lines (when it logged them)."""
    found = {}
    for _, line in lines:
        if "nranks" in line and (m := _NCCL_RANK.search(line)):
            found[m.group(1)] = int(m.group(2))
    return found


def split_prefix(
    line: str, numbered: bool = False, nccl_ranks: Mapping[str, int] | None = None
) -> tuple[int | None, str]:
    """The rank a line's prefix names (None: no prefix) and the line without it."""
    if line.startswith("["):
        line = _CONSOLE_NOISE.sub("", line, count=1)
    if line[:1] in _QUOTE_STARTS:
        line = _QUOTE.sub("", line, count=1)
    stamp = _STAMP.match(line)
    head, line = (line[: stamp.end()], line[stamp.end() :]) if stamp else ("", line)
    if not _ANY_PREFIX.match(line):
        line = head + line
        if numbered and (m := _NUMBER_PREFIX.match(line)):
            return int(m.group(1)), line[m.end() :]
        return None, line
    line = _ACTOR.sub("", line, count=1)
    for prefix in _PREFIXES:
        m = prefix.match(line)
        if m:
            rest = line[m.end() :]
            again = _PREFIXES[0].match(rest)  # `[1,0]<stderr>:[rank0]: …`, `[default2]:[rank2]:`
            return int(m.group(1)), head + (rest[again.end() :] if again else rest)
    m = _DEVICE.match(line)
    if m and "NCCL" in line[m.end() : m.end() + 40]:
        return (nccl_ranks or {}).get(m.group(1), int(m.group(2))), head + line
    line = head + line
    if numbered:
        m = _NUMBER_PREFIX.match(line)
        if m:
            return int(m.group(1)), line[m.end() :]
    return None, line


def _uses_number_prefix(lines: Iterable[str]) -> bool:
    """Whether a console log tags lines `N: ` (more than one N, on a good share of the lines)."""
    hits, seen = [], 0
    for line in lines:
        seen += 1
        if m := _NUMBER_PREFIX.match(line):
            hits.append(m.group(1))
        if seen >= 5000:
            break
    return len(set(hits)) > 1 and len(hits) * 4 >= seen
