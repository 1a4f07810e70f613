"""The `dtrain-tui` command line (`tui.cli:main`).

`main` parses and holds the plan commands, `inputs` reads what commands take, `jobs` runs jobs,
`azure` hands job commands to Azure ML, `render` prints plans to a terminal.
"""

from tui.cli.inputs import CliError, apply_sets
from tui.cli.main import main

__all__ = ["CliError", "apply_sets", "main"]
