"""Text from data never reaches a terminal raw (issue 28): whatever prints it. The command
output's console escapes control characters in every string it prints on a terminal
(tui/cli/terminal.py's `console`, with the one function `visible`), as export's lines and
every stderr message do; piped, nothing is escaped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.probes import run_cli

PRESET = (
    'title: "evil \\e]0;pwned\\a title"\n'
    'note: "a note \\e[2J that clears the screen"\n'
    "spec: {nodes: 2}\n"
)
RAW = (b"\x1b]0;pwned", b"\x07", b"\x1b[2J")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home/config/presets").mkdir(parents=True)
    (tmp_path / "home/config/presets/evil.yaml").write_text(PRESET)
    return tmp_path / "home"


@pytest.mark.parametrize("args", [["presets"], ["presets", "show", "evil"]])
def test_a_user_presets_words_are_shown_escaped_on_a_terminal(tmp_path, home, args) -> None:
    out = run_cli(*args, cwd=tmp_path, env={"DTRAIN_TUI_HOME": str(home)}, tty=True)
    assert out.rc == 0, out.stderr
    assert not any(raw in out.stdout for raw in RAW), out.stdout
    assert b"evil \\x1b]0;pwned\\x07 title" in out.stdout, out.stdout
    if "show" in args:
        assert b"a note \\x1b[2J that clears the screen" in out.stdout, out.stdout


def test_piped_they_are_not_escaped(tmp_path, home) -> None:
    """Piped, nothing is escaped (rich itself drops the BEL that ends the title sequence)."""
    out = run_cli("presets", "show", "evil", cwd=tmp_path, env={"DTRAIN_TUI_HOME": str(home)})
    assert out.rc == 0, out.stderr
    assert b"evil \x1b]0;pwned" in out.stdout and b"\\x1b" not in out.stdout
