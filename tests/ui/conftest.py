"""Wizard tests: a real app with no backends, in a temporary home, cursors that never blink."""

from __future__ import annotations

import pytest
from textual.widgets import Input


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text("print('hi')\n")
    return tmp_path


@pytest.fixture(autouse=True)
def no_cursor_blink(monkeypatch):
    monkeypatch.setattr(Input, "cursor_blink", False)


def make_app(**kwargs):
    from tui.app import DtrainApp

    return DtrainApp(backends=kwargs.pop("backends", {}), **kwargs)
