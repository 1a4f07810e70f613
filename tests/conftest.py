"""Fixtures shared by several test folders."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import tui.frameworks.registry  # noqa: F401 (the frameworks give the model their rules, as the app and CLI load them)
from tests.logs.azurite import AZURITE_BIN, MISSING, Azurite

# Property tests judge what a value gives, never how long it takes: hypothesis's 200 ms deadline
# failed a plan test on a machine busy with a second test worker (280 ms once, 81 ms again).
settings.register_profile("no_deadline", deadline=None)
settings.load_profile("no_deadline")

# Where the app (tui/core/dirs.py: DTRAIN_TUI_HOME, else platformdirs, which reads XDG_* and then
# HOME) and the tools it starts look for the user's presets, jobs and caches. No test may see
# the real ones: a user preset named like a shipped one would be checked instead of it.
_XDG = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_STATE_HOME": ".local/state",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CACHE_HOME": ".cache",
}
_saved_env: dict[str, str | None] = {}
_run_home: list[Path] = []


def home_env(folder: Path) -> dict[str, str]:
    """HOME, DTRAIN_TUI_HOME and the XDG folders, all inside `folder`; no prices API."""
    home = folder / "user"
    return {
        "HOME": str(home),
        "DTRAIN_TUI_HOME": str(folder / "dtrain-tui"),
        "DTRAIN_TUI_PRICES_URL": "",  # no test asks Azure's prices API (test_prices serves one)
        **{name: str(home / sub) for name, sub in _XDG.items()},
    }


def pytest_configure(config: pytest.Config) -> None:
    # For the whole run, collection and session fixtures included (module-level code that
    # lists presets runs before any fixture); each test then gets a folder of its own below.
    folder = Path(tempfile.mkdtemp(prefix="dtrain-tui-test-home-"))
    _run_home.append(folder)
    for name, value in home_env(folder).items():
        _saved_env[name] = os.environ.get(name)
        os.environ[name] = value


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, value in _saved_env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    while _run_home:
        shutil.rmtree(_run_home.pop(), ignore_errors=True)


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test: its own empty HOME, DTRAIN_TUI_HOME and XDG folders (subprocesses inherit
    them through the environment)."""
    folder = tmp_path_factory.mktemp("home")
    for name, value in home_env(folder).items():
        monkeypatch.setenv(name, value)
    return folder


@pytest.fixture(scope="session")
def azurite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Azurite]:
    """One Azurite on a free loopback port for the whole run; fails (never skips) when missing."""
    if not AZURITE_BIN.exists():
        pytest.fail(MISSING, pytrace=False)
    with Azurite(tmp_path_factory.mktemp("azurite")) as server:
        yield server
