"""`dtrain-tui metrics NAME [--rank N] [--format csv|json]`: a job's training progress, parsed
from a rank's log (tui/logs/progress.py), for scripts and notebooks.

csv: one row per point (`metric,step,value`); json: every series plus where training stands.
The log is read as it is now (a running job's so far). Exit 2 with one line when the job or
its log cannot be found.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

from tui.cli.inputs import CliError


def add_parser(sub, targets: tuple[str, ...], add_workspace) -> None:
    """Register `metrics` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "metrics",
        help="the loss, accuracy, lr … a job's log printed, as CSV or JSON",
    )
    p.add_argument("name", metavar="NAME", help="the job's name (`dtrain-tui jobs` lists them)")
    p.add_argument("--rank", type=int, metavar="N", help="whose log (default: rank 0's)")
    p.add_argument("--format", choices=("csv", "json"), default="csv", help="default: csv")
    p.add_argument(
        "--target", choices=targets, default="local", help="where the job runs (default: here)"
    )
    add_workspace(p)


def cmd_metrics(args: argparse.Namespace) -> int:
    import asyncio

    from tui.backends.base import BackendError
    from tui.cli.jobs import LOG_BACKENDS
    from tui.logs.follower import LogFollower
    from tui.logs.names import log_for_rank, rank_logs
    from tui.logs.progress import ProgressTracker

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
    tracker = ProgressTracker()
    follower = LogFollower(sources[name], done=lambda: True)

    async def read() -> None:
        async for update in follower:
            tracker.feed(update.lines)
        await _close(sources[name])

    asyncio.run(read())
    if args.format == "json":
        json.dump(_as_json(job.name, name, tracker), sys.stdout, indent=1)
        print()
    else:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["metric", "step", "value"])
        for series in tracker.series.values():
            for x, y in zip(series.xs, series.ys, strict=True):
                out.writerow([series.name, _number(x), repr(y)])
    if not tracker.series:
        print(f"{job.name}: no training progress found in {name}", file=sys.stderr)
    return 0


def _as_json(job: str, log: str, tracker) -> dict:
    standing = tracker.standing()
    return {
        "job": job,
        "log": log,
        "standing": {
            "step": standing.step,
            "total": standing.total,
            "epoch": standing.epoch,
            "epochs": standing.epochs,
            "steps_per_second": standing.rate,
        },
        "series": {
            s.name: {"source": s.source, "step": [_number(x) for x in s.xs], "value": list(s.ys)}
            for s in tracker.series.values()
        },
    }


def _number(x: float) -> int | float:
    return int(x) if x.is_integer() else x


async def _close(source) -> None:
    close = getattr(source, "aclose", None)
    if close is not None:
        await close()
