"""Where dtrain-tui keeps user presets (config), local jobs (state) and log spools (cache).

`DTRAIN_TUI_HOME` moves both under one folder: tests and sandboxes use it to stay out of the
user's real directories.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "dtrain-tui"


def config_dir() -> Path:
    home = os.environ.get("DTRAIN_TUI_HOME")
    return Path(home, "config") if home else Path(platformdirs.user_config_dir(APP))


def cache_dir() -> Path:
    home = os.environ.get("DTRAIN_TUI_HOME")
    return Path(home, "cache") if home else Path(platformdirs.user_cache_dir(APP))


def state_dir() -> Path:
    home = os.environ.get("DTRAIN_TUI_HOME")
    return Path(home, "state") if home else Path(platformdirs.user_state_dir(APP))
