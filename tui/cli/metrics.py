"""`dtrain-tui metrics NAME|PATH [--rank N] [--format csv|json]`: training progress parsed from a
job's rank log or from a log file (tui/logs/progress.py), for scripts and notebooks.

csv: one row per point (`metric,step,epoch,value,index`: the step and epoch as the log printed
them, empty where it printed none, never made up; the index numbers the lines that gave points),
written as the log is read, so a log of any size is printed in bounded memory; json (its points
spooled to a temporary file until the log ends, so memory stays bounded too): every series (its
`step` and `epoch`, null where none was printed, `value`, `index`) plus where training stands,
the rate (`steps_per_second`) from the bar, the arrival of steps or the times the lines
printed. The log is read as it is now (a running job's so far). Exit 2 with one line when the
job, the file or the log cannot be found.
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
        # a row's cells: `name,` `step` `,,` `value,` `index\n`, or `name,` `step` `,` `epoch,`
        # `value,` `index\n` (a step the log did not print is empty: NaN is never kept)
        self.steps = _Texts(_epoch_text)
        self.epochs = _Texts(lambda e: _epoch_text(e) + ",")
        self.values = _Texts(lambda y: repr(y) + ",")

    def flush(self) -> None:
        rows: list[str] = []
        if not self.started:
            rows.append("metric,step,epoch,value,index\n")
            self.started = True
        shared: tuple[array, list[str], list[str]] | None = None  # a line's metrics share it
        for series in self.tracker.series.values():
            if not (n := len(series.ys)):
                continue
            if (lead := self.leads.get(series.name)) is None:
                lead = self.leads[series.name] = _csv_name(series.name)
            if shared is None or series.ns != shared[0]:  # the same lines: the same steps
                indexes = [f"{int(i)}\n" for i in series.ns]
                shared = series.ns, self._steps(series.xs, series.stepless), indexes
            width = 6 if series.es else 5
            cells = [lead] * (width * n)
            cells[1::width] = shared[1]
            if series.es:
                es = list(map(self.epochs.__getitem__, series.es))
                cells[2::width] = [","] * n
                cells[3::width] = es + [","] * (n - len(es))
            else:  # no epoch known
                cells[2::width] = [",,"] * n
            cells[width - 2 :: width] = map(self.values.__getitem__, series.ys)
            cells[width - 1 :: width] = shared[2]
            rows += cells
        for series in self.tracker.series.values():
            series.clear()
        self.write("".join(rows))

    def _steps(self, xs: array, stepless: int) -> list[str]:
        if not stepless and all(map(float.is_integer, xs)):
            return list(map(str, map(int, xs)))
        return list(map(self.steps.__getitem__, xs))


def _csv_name(name: str) -> str:
    """`name,` as the csv module writes it at the start of a row (quoted where it must be)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([name, ""])
    return out.getvalue()[:-1]


class _Spool:
    """The JSON's points, kept on disk until they are written: once the tracker holds `SPILL`
    points, every series' steps, epochs and values are appended to one file of doubles and leave
    memory, so a log of millions of points is printed in bounded memory (the JSON groups each
    series' points, which only the end of the log completes). One file for every series: a
    file per series ran out of descriptors past a few hundred series (per-layer norms)."""

    def __init__(self, tracker) -> None:
        self.tracker = tracker
        self.file: BinaryIO | None = None
        self.chunks: dict[str, array] = {}
        """Each series' chunks in the file: (offset, points) pairs, flat."""

    def __enter__(self) -> _Spool:
        self.file = tempfile.TemporaryFile(prefix="dtrain-tui-metrics-")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.file is not None:
            self.file.close()

    def flush(self) -> None:
        if sum(len(series.ys) for series in self.tracker.series.values()) >= SPILL:
            self._spill()

    def _spill(self) -> None:
        f = self.file
        assert f is not None
        f.seek(0, io.SEEK_END)
        for key, series in self.tracker.series.items():
            if not (n := len(series.ys)):
                continue
            self.chunks.setdefault(key, array("q")).extend((f.tell(), n))
            series.ns.tofile(f)
            series.xs.tofile(f)
            epochs = array("d", series.es)  # NaN where none was known
            epochs.extend([math.nan] * (n - len(epochs)))
            epochs.tofile(f)
            series.ys.tofile(f)
            series.clear()

    def write_json(self, job: str | None, log: str) -> None:
        """The JSON object, written series by series from the spool."""
        self._spill()
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
                "loss_nonfinite": standing.diverged,
                "loss_nonfinite_step": standing.diverged_step,
                "loss_nonfinite_epoch": standing.diverged_epoch,
            },
        }
        write = sys.stdout.write
        values = _Texts(repr)
        steps = _Texts(lambda e: "null" if math.isnan(e) else _step_text(e))  # NaN: not printed
        write(json.dumps(head, indent=1)[:-2] + ',\n "series": {')
        for n, (key, series) in enumerate(self.tracker.series.items()):
            chunks = self.chunks.get(key, array("q"))
            write(",\n" if n else "\n")
            write(f'  {json.dumps(series.name)}: {{"source": {json.dumps(series.source)}, ')
            write(f'"validation": {json.dumps(series.validation)}, "step": [')
            self._write_numbers(chunks, 1, steps.__getitem__, nan="null")
            write('], "epoch": [')
            self._write_numbers(chunks, 2, steps.__getitem__, nan="null")
            write('], "value": [')
            self._write_numbers(chunks, 3, values.__getitem__)
            write('], "index": [')
            self._write_numbers(chunks, 0, None)  # whole numbers
            write("]}")
        write("\n }\n}\n")

    def _write_numbers(self, chunks: array, part: int, text, nan: str | None = None) -> None:
        """One column (0 indexes, 1 steps, 2 epochs, 3 values) of a series' chunks,
        comma-separated, a block at a time (a block all NaN, as a series without epochs has,
        written as `nan` at once: NaN is no key to remember)."""
        f = self.file
        assert f is not None
        first = True
        for at in range(0, len(chunks), 2):
            offset, count = chunks[at], chunks[at + 1]
            f.seek(offset + part * count * _DOUBLE)
            while count:
                block = array("d")
                block.fromfile(f, min(count, _BLOCK))
                count -= len(block)
                if text is None:  # indexes: whole, each a new number (no text to look up)
                    texts = map(str, map(int, block))
                elif nan is not None and all(map(math.isnan, block)):
                    texts = [nan] * len(block)
                else:
                    texts = map(text, block)
                sys.stdout.write(("" if first else ", ") + ", ".join(texts))
                first = False


SPILL = 1 << 18
"""Points the tracker may hold before they go to the spool (8 bytes each, three times over)."""
_BLOCK = 1 << 16
"""Doubles read back from the spool at a time."""
_DOUBLE = array("d").itemsize


async def _close(source) -> None:
    close = getattr(source, "aclose", None)
    if close is not None:
        await close()
