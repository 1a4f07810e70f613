"""The `dtrain-tui` command line (`tui.cli:main`).

`commands` parses and holds the plan commands, `inputs` reads what commands take, `jobs` runs jobs,
`azure` hands job commands to Azure ML, `render` prints plans to a terminal; `start` runs each
command guarded, and starts the wizard.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from tui.cli.start import CliError, guarded_run, wizard

if TYPE_CHECKING:
    from tui.cli.inputs import apply_sets

__all__ = ["CliError", "apply_sets", "main"]


def main(argv: list[str] | None = None) -> int:
    """`dtrain-tui`. With no arguments, the wizard, before the parser or any command's module is
    imported (its first frame is what `dtrain-tui` is timed by); else the command line."""
    if not (sys.argv[1:] if argv is None else argv):
        return guarded_run(wizard)
    from tui.cli.commands import main as command_line

    return command_line(argv)


def __getattr__(name: str):
    if name == "apply_sets":  # the inputs' module (argparse) only when asked
        from tui.cli.inputs import apply_sets

        return apply_sets
    raise AttributeError(name)
