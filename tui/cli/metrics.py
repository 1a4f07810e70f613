"""`dtrain-tui metrics NAME|PATH [--rank N] [--format csv|json]`: training progress parsed from a
job's rank log or from a log file (tui/logs/progress.py), for scripts and notebooks.

csv: one row per point (`metric,step,epoch,value`), written as the log is read, so a log of any
size is printed in bounded memory; json: every series plus where training stands, the rate
(`steps_per_second`) from the bar, the arrival of steps or the times the lines printed. The log
is read as it is now (a running job's so far). Exit 2 with one line when the job, the file or
the log cannot be found.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path

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
    out = _Rows(tracker) if args.format == "csv" else None
    if is_file:
        job, log = None, str(path)
        _read_file(path, tracker, out)
    else:
        job, log = _read_job(args, tracker, out)
    if out is None:
        _write_json(job, log, tracker)
    else:
        out.flush()
    if tracker.lines_parsed == 0:
        print(f"{job or log}: no training progress found in {log}", file=sys.stderr)
    return 0


def _read_file(path: Path, tracker, out: _Rows | None) -> None:
    try:
        with path.open("rb") as handle:
            for chunk in _chunks(handle):
                tracker.feed(chunk)
                if out is not None:
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


def _read_job(args: argparse.Namespace, tracker, out: _Rows | None) -> tuple[str, str]:
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
            if out is not None:
                out.flush()
        await _close(sources[name])

    asyncio.run(read())
    return job.name, name


class _Rows:
    """CSV rows of the points the tracker added since the last flush; the written points are
    dropped from the series, so memory stays bounded however long the log."""

    def __init__(self, tracker) -> None:
        self.tracker = tracker
        self.out = csv.writer(sys.stdout, lineterminator="\n")
        self.started = False

    def flush(self) -> None:
        if not self.started:
            self.out.writerow(["metric", "step", "epoch", "value"])
            self.started = True
        for series in self.tracker.series.values():
            for i, (x, y) in enumerate(zip(series.xs, series.ys, strict=True)):
                epoch = series.epoch_at(i)
                self.out.writerow(
                    [series.name, _number(x), "" if epoch is None else _number(epoch), repr(y)]
                )
            series.clear()


def _write_json(job: str | None, log: str, tracker) -> None:
    """The JSON object, written series by series (no second copy of the points in memory)."""
    standing = tracker.standing()
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
    for n, series in enumerate(tracker.series.values()):
        write(",\n" if n else "\n")
        write(f'  {json.dumps(series.name)}: {{"source": {json.dumps(series.source)}, ')
        write(f'"validation": {json.dumps(series.validation)}, "step": [')
        write(", ".join(str(_number(x)) for x in series.xs))
        write('], "epoch": [')
        write(", ".join(_json_epoch(series, i) for i in range(len(series.xs))))
        write('], "value": [')
        write(", ".join(repr(y) for y in series.ys))
        write("]}")
    write("\n }\n}\n")


def _json_epoch(series, i: int) -> str:
    epoch = series.epoch_at(i)
    return "null" if epoch is None else str(_number(epoch))


def _number(x: float) -> int | float:
    return int(x) if math.isfinite(x) and x.is_integer() else x


async def _close(source) -> None:
    close = getattr(source, "aclose", None)
    if close is not None:
        await close()
