"""The terminal and its streams (issue 28): whatever stdin, stdout and the locale are, a command
says one line or degrades, never a traceback, and the wizard never starts without a terminal.

Every probe is the real CLI in a fresh interpreter, capped (tests/hostile/probes.py); the shell
in `wrap` does to stdout what a user's shell would (`>&-`, `> /dev/full`, `| head -1`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.hostile.probes import Outcome, run_cli

ASCII = {"PYTHONIOENCODING": "ascii"}
POSIX = {  # Python's own locale coercion and UTF-8 mode both off: stdout is ASCII
    "LC_ALL": "POSIX",
    "LANG": "POSIX",
    "PYTHONUTF8": "0",
    "PYTHONCOERCECLOCALE": "0",
    "PYTHONIOENCODING": "",
}
SCRIPT = b"import torch\n\nprint('caf\xc3\xa9 \xc3\x97 2')  # caf\xc3\xa9\n"


def shell(redirect: str) -> list[str]:
    """A `wrap` that runs the probe with `redirect` applied to it (`>&-`, `> /dev/full`…)."""
    return ["sh", "-c", f'"$@" {redirect}', "probe"]


@dataclass
class Probe:
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    wrap: list[str] = field(default_factory=list)
    tty: bool = False


DEGRADES = {
    f"{name} {' '.join(args)}": Probe(args, env)
    for name, env in (("ascii", ASCII), ("POSIX", POSIX))
    for args in (
        ["preview"],
        ["preview", "--show", "all"],
        ["check", "--set", "script=train.py", "--set", "code=."],
        ["presets"],
        ["presets", "show", "pytorch-ddp"],
    )
}
FAILS = {
    "preview >&-": Probe(["preview"], wrap=shell(">&-")),
    "export -o - >&-": Probe(["export", "-o", "-"], wrap=shell(">&-")),
    "preview > /dev/full": Probe(["preview", "--show", "all"], wrap=shell("> /dev/full")),
    "export -o - > /dev/full": Probe(["export", "-o", "-"], wrap=shell("> /dev/full")),
}
QUIET = {
    "preview | head -1": Probe(
        ["preview", "--show", "env", "--set", "nodes=64"], wrap=shell("| head -c 10 >/dev/null")
    ),
    "export -o - | head -1": Probe(["export", "-o", "-"], wrap=shell("| true")),
}
NO_TERMINAL = {
    "wizard < /dev/null": Probe([]),
    "wizard < /dev/null, stdout a terminal": Probe([], tty=True),
    "wizard --preset < /dev/null": Probe(["--preset", "pytorch-ddp"], tty=True),
    "edit < /dev/null": Probe(["edit", "job.yml"], tty=True),
    "wizard <&-": Probe([], wrap=shell("<&-"), tty=True),
}
PROBES = DEGRADES | FAILS | QUIET | NO_TERMINAL


def _run(probe: Probe, folder: Path) -> Outcome:
    folder.mkdir()
    (folder / "train.py").write_bytes(SCRIPT)
    export = run_cli("export", "-o", "job.yml", cwd=folder)
    assert export.rc == 0, export.stderr
    return run_cli(*probe.args, cwd=folder, env=probe.env, wrap=probe.wrap, tty=probe.tty)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    root = tmp_path_factory.mktemp("streams")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            name: pool.submit(_run, probe, root / f"p{i}")
            for i, (name, probe) in enumerate(PROBES.items())
        }
        return {name: f.result() for name, f in futures.items()}


def _no_traceback(out: Outcome) -> None:
    assert not out.timed_out, "still running at the ceiling"
    assert "Traceback" not in out.stderr and "Exception ignored" not in out.stderr, out.stderr


@pytest.mark.parametrize("name", list(DEGRADES))
def test_a_stream_that_cannot_encode_gets_ascii(name: str, outcomes) -> None:
    out = outcomes[name]
    _no_traceback(out)
    assert out.rc in (0, 1), out.stderr  # check: 1 when it finds something
    assert out.stdout.strip(), "nothing printed"
    assert out.stdout.isascii(), out.stdout


def test_ascii_stand_ins_keep_the_meaning(outcomes) -> None:
    out = outcomes["ascii preview"]
    assert b"2 nodes x 8 GPUs" in out.stdout and b" - " in out.stdout, out.stdout


@pytest.mark.parametrize("name", list(FAILS))
def test_a_stdout_that_cannot_be_written_is_one_line(name: str, outcomes) -> None:
    out = outcomes[name]
    _no_traceback(out)
    assert out.rc == 1, out.stderr
    assert len(out.err_lines) == 1, out.err_lines
    assert out.err_lines[0].startswith("dtrain-tui: error: cannot write to standard output")
    reason = "No space left on device" if "full" in name else "closed"
    assert reason in out.err_lines[0]


@pytest.mark.parametrize("name", list(QUIET))
def test_a_closed_pipe_is_quiet(name: str, outcomes) -> None:
    out = outcomes[name]
    _no_traceback(out)
    assert out.rc == 0 and out.err_lines == [], out.stderr


@pytest.mark.parametrize("name", list(NO_TERMINAL))
def test_the_wizard_does_not_start_without_a_terminal(name: str, outcomes) -> None:
    out = outcomes[name]
    _no_traceback(out)
    assert out.rc == 2, out.stderr
    assert out.err_lines == [
        "dtrain-tui: error: no terminal: use a sub-command (`dtrain-tui --help` lists them)"
    ]
    assert not out.timed_out, out.seconds  # no wait for a terminal (the probe's ceiling)
    assert b"\x1b[" not in out.stdout  # no screen drawn


def test_a_full_stdout_fails_the_same_way_in_process(tmp_path, monkeypatch, capsys) -> None:
    """The mechanism, not the command: whatever raises on stdout is reported by main()."""
    from tui.cli import main

    monkeypatch.chdir(tmp_path)

    class Full:
        encoding = "utf-8"

        def write(self, text):
            raise OSError(28, "No space left on device")

        def flush(self):
            pass

        def isatty(self):
            return False

    monkeypatch.setattr("sys.stdout", Full())
    assert main(["presets"]) == 1
    err = capsys.readouterr().err
    assert err == "dtrain-tui: error: cannot write to standard output (No space left on device)\n"


def test_jobs_without_a_terminal_on_stdin_prints_the_table(tmp_path: Path) -> None:
    """stdout a terminal, stdin not: the table a pipe gets, not a UI waiting on /dev/null."""
    out = run_cli("jobs", cwd=tmp_path, tty=True)
    _no_traceback(out)
    assert out.rc == 0 and not out.timed_out, out.stderr
    assert b"\x1b[?1049h" not in out.stdout  # no alternate screen: no UI


def test_a_closed_stderr_keeps_messages_out_of_stdout(tmp_path: Path) -> None:
    out = run_cli("export", "-o", "-", "--set", "nodes=x", cwd=tmp_path, wrap=shell("2>&-"))
    _no_traceback(out)
    assert out.rc == 2 and out.stdout == b"", out.stdout
