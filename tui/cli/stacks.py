"""`dtrain-tui stacks NAME [--json]`: every rank's Python stack, grouped, the odd ones out first.

A local job's ranks are asked (SIGUSR1 to each, answered within the wait); an Azure ML job's
ranks cannot be, so the stacks are the ones each rank printed on its own after DTRAIN_STACKS
minutes in one place. Exit 0 when stacks were found, 1 when none were, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json

from tui.cli.inputs import CliError


def add_parser(sub, targets: tuple[str, ...], add_workspace) -> None:
    """Register `stacks` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "stacks", help="every rank's Python stack, grouped: where a hung job is stuck"
    )
    p.add_argument("name", metavar="NAME", help="a job's name (`dtrain-tui jobs`)")
    p.add_argument("--json", action="store_true", help="print the groups as one JSON object")
    p.add_argument(
        "--target", choices=targets, default="local", help="where job NAME runs (default: here)"
    )
    p.add_argument(
        "--wait",
        type=float,
        default=2.5,
        metavar="SECONDS",
        help="how long a local job's ranks get to answer (default 2.5)",
    )
    add_workspace(p)


def cmd_stacks(args: argparse.Namespace) -> int:
    from tui.backends.base import BackendError
    from tui.backends.stacks import collect
    from tui.cli.jobs import LOG_BACKENDS
    from tui.logs.stacks import detail, odd_one_out, span, summary

    if not 0 <= args.wait <= 60:
        raise CliError(f"stacks: --wait {args.wait}: give 0 to 60 seconds")
    backend = LOG_BACKENDS[args.target](args)
    try:
        job = backend.handle(args.name)
        found = collect(backend, job, args.wait)
    except BackendError as err:
        raise CliError(str(err)) from None
    if args.json:
        out = {
            "job": job.name,
            "note": found.note(),
            "asked": found.asked,
            "odd_one_out": odd_one_out(found.groups),
            "missing": found.missing,
            "groups": [
                {
                    "ranks": list(g.ranks),
                    "where": g.text,
                    "stack": [
                        {"file": f.file, "line": f.line, "function": f.function}
                        for f in g.dump.frames
                    ],
                    "logs": [found.logs[r] for r in g.ranks],
                }
                for g in found.groups
            ],
        }
        print(json.dumps(out, indent=2))
    else:
        print(f"{job.name}: {summary(found.groups)}")
        print(f"({found.note()})")
        for line in detail(found.groups):
            print(line)
        if found.missing and found.groups:
            print(f"no stack from ranks {span(tuple(found.missing))}")
    return 0 if found.groups else 1
