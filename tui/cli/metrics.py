"""`dtrain-tui metrics NAME|PATH [--rank N] [--format csv|json]`: training progress parsed from a
job's rank log or from a log file (tui/logs/progress.py), for scripts and notebooks.

csv: one row per point (`metric,step,epoch,value`), written as the log is read, so a log of any
size is printed in bounded memory; json (its points spooled to a temporary folder until the log
ends, so memory stays bounded too): every series plus where training stands, the rate
(`steps_per_second`) from the bar, the arrival of steps or the times the lines printed. The log
is read as it is now (a running job's so far). Exit 2 with one line when the job, the file or
the log cannot be found.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import math
import sys
import tempfile
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from tui.cli.inputs import CliError

_CHUNK = 4096
"""Lines fed to the tracker at a time (and the CSV rows they made written out)."""


def add_parser(sub, targets: tuple[str, ...], add_workspace) -> None:
    """Register `metrics` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "metrics",
        help="the loss, accuracy, lr … a job's log (or a log file) printed, as CSV or JSON",
    )
    p.add_argument(
        "name",
        metavar="NAME|PATH",
        help="a job's name (`dtrain-tui jobs` lists them), or a log file",
    )
    p.add_argument("--rank", type=int, metavar="N", help="whose log (default: rank 0's)")
    p.add_argument("--format", choices=("csv", "json"), default="csv", help="default: csv")
    p.add_argument(
        "--target", choices=targets, default="local", help="where job NAME runs (default: here)"
    )
    add_workspace(p)


def cmd_metrics(args: argparse.Namespace) -> int:
    from tui.logs.progress import ProgressTracker

    tracker = ProgressTracker()
    path = Path(args.name)
    is_file = path.is_file()
    if not is_file and (path.exists() or "/" in args.name or args.name.endswith((".txt", ".log"))):
        raise CliError(f"metrics: {args.name}: no such log file")
    with contextlib.ExitStack() as stack:
        out = _Rows(tracker) if args.format == "csv" else stack.enter_context(_Spool(tracker))
        if is_file:
            job, log = None, str(path)
            _read_file(path, tracker, out)
        else:
            job, log = _read_job(args, tracker, out)
        out.flush()
        if isinstance(out, _Spool):
            out.write_json(job, log)
    if tracker.lines_parsed == 0:
        print(f"{job or log}: no training progress found in {log}", file=sys.stderr)
    return 0


def _read_file(path: Path, tracker, out: _Rows | _Spool) -> None:
    try:
        with path.open("rb") as handle:
            for chunk in _chunks(handle):
                tracker.feed(chunk)
                out.flush()
    except OSError as err:
        raise CliError(f"metrics: cannot read {path}: {err.strerror or err}") from None


def _chunks(handle) -> Iterator[list[str]]:
    """A file's lines, decoded (bad bytes replaced) with a bar's `\\r` redraws collapsed to
    their latest state, in lists of `_CHUNK`."""
    from tui.logs.progress import MAX_LINE

    chunk: list[str] = []
    while raw := handle.readline(MAX_LINE + 1):
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while (rest := handle.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass  # a dump or a blob: never progress, read past in bounded pieces
            continue
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        if "\r" in text:
            text = text.rstrip("\r").rsplit("\r", 1)[-1]
        chunk.append(text)
        if len(chunk) >= _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _read_job(args: argparse.Namespace, tracker, out: _Rows | _Spool) -> tuple[str, str]:
    import asyncio

    from tui.backends.base import BackendError
    from tui.cli.jobs import LOG_BACKENDS
    from tui.logs.follower import LogFollower
    from tui.logs.names import log_for_rank, rank_logs

    backend = LOG_BACKENDS[args.target](args)
    try:
        job = backend.handle(args.name)
        sources = backend.log_sources(job)
    except BackendError as err:
        raise CliError(str(err)) from None
    rank = 0 if args.rank is None else args.rank
    name = log_for_rank(sources, rank)
    if name is None:
        ranks = [r.rank for r in rank_logs(sources)]
        known = f" (ranks {ranks[0]}-{ranks[-1]})" if ranks else " yet"
        raise CliError(f"job {job.name} has no log for rank {rank}{known}")
    follower = LogFollower(sources[name], done=lambda: True)

    async def read() -> None:
        async for update in follower:
            tracker.feed(update.lines)
            out.flush()
        await _close(sources[name])

    asyncio.run(read())
    return job.name, name


class _Rows:
    """CSV rows of the points the tracker added since the last flush; the written points are
    dropped from the series, so memory stays bounded however long the log. Each flush is one
    write of text formatted in bulk (csv's writer, a row at a time, took 2 µs a point)."""

    def __init__(self, tracker) -> None:
        self.tracker = tracker
        self.write = sys.stdout.write
        self.started = False

    def flush(self) -> None:
        rows: list[str] = []
        if not self.started:
            rows.append("metric,step,epoch,value\n")
            self.started = True
        for series in self.tracker.series.values():
            if not series.ys:
                continue
            lead = _csv_name(series.name)
            xs, es, ys = series.xs, series.es, series.ys
            if not es:  # as _number() and repr() write them; no epoch known
                rows += [
                    f"{lead}{int(x) if x.is_integer() else x},,{y!r}\n"
                    for x, y in zip(xs, ys, strict=True)
                ]
            else:
                rows += [
                    f"{lead}{_number(x)},{_epoch(es, i)},{y!r}\n"
                    for i, (x, y) in enumerate(zip(xs, ys, strict=True))
                ]
            series.clear()
        self.write("".join(rows))


def _csv_name(name: str) -> str:
    """`name,` as the csv module writes it at the start of a row (quoted where it must be)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([name, ""])
    return out.getvalue()[:-1]


def _epoch(es: array, i: int) -> str:
    return "" if i >= len(es) or math.isnan(es[i]) else str(_number(es[i]))


class _Spool:
    """The JSON's points, kept on disk until they are written: after each chunk every series'
    steps, epochs and values go to three files of doubles and leave memory, so a log of
    millions of points is printed in bounded memory (the JSON groups each series' points,
    which only the end of the log completes)."""

    def __init__(self, tracker) -> None:
        self.tracker = tracker
        self.folder: tempfile.TemporaryDirectory[str] | None = None
        self.files: dict[str, tuple[BinaryIO, BinaryIO, BinaryIO]] = {}

    def __enter__(self) -> _Spool:
        self.folder = tempfile.TemporaryDirectory(prefix="dtrain-tui-metrics-")
        return self

    def __exit__(self, *exc_info: object) -> None:
        for files in self.files.values():
            for f in files:
                f.close()
        if self.folder is not None:
            self.folder.cleanup()

    def flush(self) -> None:
        assert self.folder is not None
        for key, series in self.tracker.series.items():
            if key not in self.files:
                base = Path(self.folder.name) / str(len(self.files))
                self.files[key] = tuple(  # type: ignore[assignment]
                    open(f"{base}.{part}", "w+b")  # noqa: SIM115 (closed by __exit__)
                    for part in ("x", "e", "y")
                )
            xs, es, ys = self.files[key]
            series.xs.tofile(xs)
            epochs = array("d", series.es)  # NaN where none was known
            epochs.extend([math.nan] * (len(series.ys) - len(epochs)))
            epochs.tofile(es)
            series.ys.tofile(ys)
            series.clear()

    def write_json(self, job: str | None, log: str) -> None:
        """The JSON object, written series by series from the spool."""
        standing = self.tracker.standing()
        head = {
            "job": job,
            "log": log,
            "standing": {
                "step": standing.step,
                "total": standing.total,
                "epoch": standing.epoch,
                "epochs": standing.epochs,
                "steps_per_second": standing.rate,
            },
        }
        write = sys.stdout.write
        write(json.dumps(head, indent=1)[:-2] + ',\n "series": {')
        for n, (key, series) in enumerate(self.tracker.series.items()):
            xs, es, ys = self.files.get(key, (None, None, None))
            write(",\n" if n else "\n")
            write(f'  {json.dumps(series.name)}: {{"source": {json.dumps(series.source)}, ')
            write(f'"validation": {json.dumps(series.validation)}, "step": [')
            _write_numbers(xs, lambda x: str(_number(x)))
            write('], "epoch": [')
            _write_numbers(es, lambda e: "null" if math.isnan(e) else str(_number(e)))
            write('], "value": [')
            _write_numbers(ys, repr)
            write("]}")
        write("\n }\n}\n")


_BLOCK = 1 << 16
"""Doubles read back from the spool at a time."""


def _write_numbers(f: BinaryIO | None, text) -> None:
    """One spool file's doubles, comma-separated, a block at a time."""
    if f is None:
        return
    f.seek(0)
    first = True
    while True:
        block = array("d")
        with contextlib.suppress(EOFError):  # the last, shorter block: fromfile keeps it
            block.fromfile(f, _BLOCK)
        if not block:
            return
        sys.stdout.write(("" if first else ", ") + ", ".join(map(text, block)))
        first = False


def _number(x: float) -> int | float:
    return int(x) if math.isfinite(x) and x.is_integer() else x


async def _close(source) -> None:
    close = getattr(source, "aclose", None)
    if close is not None:
        await close()
