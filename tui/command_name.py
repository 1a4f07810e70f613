"""How a hint names dtrain-tui: the command that works in this shell, not always `dtrain-tui`.

The README's Run-it line installs into `.venv` without activating it, so `dtrain-tui` is not on
PATH there and a hint saying `dtrain-tui logs NAME` names nothing. Like the install hint
(`preflight.extra_install`), this finds the environment dtrain-tui runs in and says its script.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

NAME = "dtrain-tui"


def command_name(base: Path | None = None) -> str:
    """`dtrain-tui` when that name on PATH is this environment's own script; else the script by
    its path (`.venv/bin/dtrain-tui`, relative to `base`, the working folder, when inside it);
    else `python -m tui` with this Python."""
    # The venv's bin folder, not the interpreter it links to (that is another environment's).
    here = shutil.which(NAME, path=str(Path(sys.executable).absolute().parent))
    on_path = shutil.which(NAME)
    if here is None:
        return NAME if on_path else f"{_shown(Path(sys.executable), base)} -m tui"
    if on_path is not None and Path(on_path).resolve() == Path(here).resolve():
        return NAME
    return _shown(Path(here), base)


def hint(*words: str, base: Path | None = None) -> str:
    """`.venv/bin/dtrain-tui logs NAME`: a command line that runs here."""
    return " ".join((command_name(base), *words))


def _shown(path: Path, base: Path | None) -> str:
    try:
        return str(path.absolute().relative_to((base or Path.cwd()).absolute()))
    except ValueError:
        return str(path)
