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
from pathlib import Path
from typing import BinaryIO

from tui.cli.inputs import CliError


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


READ_AT_ONCE = 0.0
"""The moment every line is fed at: a log read as it is arrived all at once, so the rate comes
from the bar or the printed times, never from how fast this reads (that measured the parse)."""


def _read_file(path: Path, tracker, out: _Rows | _Spool) -> None:
    """The file read in bulk (tui/logs/progress_bulk.py: lines of a step's shape a column at a
    time), the points of each group of lines written out before the next."""
    from tui.logs.progress_bulk import BulkReader, line_groups

    reader = BulkReader(tracker)
    try:
        with path.open("rb") as handle:
            for lines in line_groups(handle):
                reader.feed(lines, READ_AT_ONCE)
                out.flush()
    except OSError as err:
        raise CliError(f"metrics: cannot read {path}: {err.strerror or err}") from None


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
            tracker.feed(update.lines, READ_AT_ONCE)
            out.flush()
        await _close(sources[name])

    asyncio.run(read())
    return job.name, name


class _Texts(dict):
    """Numbers → their text, remembered: a log prints the same values (a constant lr, the
    steps every metric shares) over and over, and writing a float costs more than a look-up.
    Zero is never kept (0.0 and -0.0 are one key and two texts), nor NaN (never found again)."""

    def __init__(self, text) -> None:
        super().__init__()
        self.text = text

    def __missing__(self, x: float) -> str:
        text = self.text(x)
        if x and x == x:
            if len(self) >= _KEPT:
                self.clear()
            self[x] = text
        return text


_KEPT = 1 << 16


def _step_text(x: float) -> str:
    """A step (or an epoch) as a whole number where it is one."""
    return str(int(x)) if x.is_integer() else repr(x)


def _epoch_text(e: float) -> str:
    return "" if math.isnan(e) else _step_text(e)


class _Rows:
    """CSV rows of the points the tracker added since the last flush; the written points are
    dropped from the series, so memory stays bounded however long the log. Each flush is one
    write of text formatted in bulk: each number's text looked up, joined a column at a time
    (csv's writer, a row at a time, took 2 µs a point)."""

    def __init__(self, tracker) -> None:
        self.tracker = tracker
        self.write = sys.stdout.write
        self.started = False
        self.leads: dict[str, str] = {}
        # a row's cells: `name,` `step` `,,` `value\n`, or `name,` `step` `,` `epoch,` `value\n`
        self.steps = _Texts(_step_text)
        self.epochs = _Texts(lambda e: _epoch_text(e) + ",")
        self.values = _Texts(lambda y: repr(y) + "\n")

    def flush(self) -> None:
        rows: list[str] = []
        if not self.started:
            rows.append("metric,step,epoch,value\n")
            self.started = True
        shared: tuple[array, list[str]] | None = None  # the metrics of a line share its step
        for series in self.tracker.series.values():
            if not (n := len(series.ys)):
                continue
            if (lead := self.leads.get(series.name)) is None:
                lead = self.leads[series.name] = _csv_name(series.name)
            if shared is None or series.xs != shared[0]:
                shared = series.xs, self._steps(series.xs)
            width = 5 if series.es else 4
            cells = [lead] * (width * n)
            cells[1::width] = shared[1]
            if series.es:
                es = list(map(self.epochs.__getitem__, series.es))
                cells[2::width] = [","] * n
                cells[3::width] = es + [","] * (n - len(es))
            else:  # no epoch known
                cells[2::width] = [",,"] * n
            cells[width - 1 :: width] = map(self.values.__getitem__, series.ys)
            rows += cells
        for series in self.tracker.series.values():
            series.clear()
        self.write("".join(rows))

    def _steps(self, xs: array) -> list[str]:
        if all(map(float.is_integer, xs)):
            return list(map(str, map(int, xs)))
        return list(map(self.steps.__getitem__, xs))


def _csv_name(name: str) -> str:
    """`name,` as the csv module writes it at the start of a row (quoted where it must be)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([name, ""])
    return out.getvalue()[:-1]


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
        steps, values = _Texts(_step_text), _Texts(repr)
        epochs = _Texts(lambda e: "null" if math.isnan(e) else _step_text(e))
        write(json.dumps(head, indent=1)[:-2] + ',\n "series": {')
        for n, (key, series) in enumerate(self.tracker.series.items()):
            xs, es, ys = self.files.get(key, (None, None, None))
            write(",\n" if n else "\n")
            write(f'  {json.dumps(series.name)}: {{"source": {json.dumps(series.source)}, ')
            write(f'"validation": {json.dumps(series.validation)}, "step": [')
            _write_numbers(xs, steps.__getitem__)
            write('], "epoch": [')
            _write_numbers(es, epochs.__getitem__, nan="null")
            write('], "value": [')
            _write_numbers(ys, values.__getitem__)
            write("]}")
        write("\n }\n}\n")


_BLOCK = 1 << 16
"""Doubles read back from the spool at a time."""


def _write_numbers(f: BinaryIO | None, text, nan: str | None = None) -> None:
    """One spool file's doubles, comma-separated, a block at a time (a block all NaN, as a
    series without epochs has, written as `nan` at once: NaN is no key to remember)."""
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
        if nan is not None and all(map(math.isnan, block)):
            texts = [nan] * len(block)
        else:
            texts = map(text, block)
        sys.stdout.write(("" if first else ", ") + ", ".join(texts))
        first = False


async def _close(source) -> None:
    close = getattr(source, "aclose", None)
    if close is not None:
        await close()
