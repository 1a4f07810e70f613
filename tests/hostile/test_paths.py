"""Paths that are not what they seem (issue 28): symbolic link loops, names and values that are
not UTF-8, named pipes where a file was expected, escape sequences in names. Each is one line on
stderr and exit 2 (a write that cannot happen: exit 2 too), never a traceback or a hang.

Every probe is the real CLI in a fresh interpreter, capped (tests/hostile/probes.py), in a
folder of its own that `_setup` fills: a code folder with a script, loops, a FIFO.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.hostile.probes import Outcome, run_cli

OSC = "\x1b]0;pwned\x07"
BAD = os.fsdecode(b"bad\xff")  # a name whose bytes are not UTF-8, as Python hands it on
LOCAL = ["--set", "sku=", "--set", "nodes=1", "--set", "gpus_per_node=1"]
STRICT = {"PYTHONIOENCODING": "utf-8:strict"}  # a UTF-8 desktop's stdout, not C.UTF-8's


@dataclass
class Probe:
    args: list[str]
    says: str
    env: dict[str, str] = field(default_factory=dict)
    rc: int = 2
    tty: bool = False


LOOP = "a symbolic link that leads back to itself"
REFUSED = {
    "export, code folder a loop": Probe(["export", "-o", "j.yml", "--set", "code=loop"], LOOP),
    "export, code folder a two-link loop": Probe(
        ["export", "-o", "j.yml", "--set", "code=a"], LOOP
    ),
    "submit, code folder a loop": Probe(["submit", "--set", "code=loop", *LOCAL], LOOP),
    "submit, script a loop": Probe(
        ["submit", "--set", "code=code", "--set", "script=self.py", *LOCAL], LOOP
    ),
    "export, job file's code: a loop": Probe(["export", "--job", "loop.yml", "-o", "j.yml"], LOOP),
    "submit, job file's code: a loop": Probe(
        ["submit", "--job", "loop.yml", "--set", "sku="], LOOP
    ),
    "submit, env value not UTF-8": Probe(
        ["submit", "--set", "code=code", *LOCAL, "--set", f"env.X=a{BAD}"],
        "--set env.X: not valid UTF-8 (byte 0xff at character 5)",
    ),
    "submit, args not UTF-8": Probe(
        ["submit", "--set", "code=code", *LOCAL, "--set", f"args=--x {BAD}"],
        "--set args: not valid UTF-8 (byte 0xff",
    ),
    "submit, env name not UTF-8": Probe(
        ["submit", "--set", "code=code", *LOCAL, "--set", f"env.{BAD}=1"],
        "not valid UTF-8",
    ),
    "export --force onto a FIFO": Probe(
        ["export", "--force", "-o", "fifo"],
        "fifo: cannot write it (a named pipe (FIFO), not a file)",
    ),
    "--job a FIFO": Probe(["preview", "--job", "fifo"], "fifo: a named pipe (FIFO), not a file"),
    "--spec a FIFO": Probe(["preview", "--spec", "fifo"], "fifo: a named pipe (FIFO), not a file"),
    "doctor a FIFO": Probe(["doctor", "fifo"], "cannot read fifo: fifo: a named pipe (FIFO)"),
    "export into a folder that is not there, named with an OSC": Probe(
        ["export", "-o", f"no{OSC}/j.yml"], "no\\x1b]0;pwned\\x07: no such folder"
    ),
}
WORKS = {
    "export to a name that is not UTF-8": Probe(
        ["export", "-o", f"{BAD}.yml"], "", env=STRICT, rc=0
    ),
    "export to a name with an OSC, on a terminal": Probe(
        ["export", "-o", f"x{OSC}.yml"], "", rc=0, tty=True
    ),
    "presets with a FIFO among the user's": Probe(
        ["presets"], "preset f: ", env={"DTRAIN_TUI_HOME": "home"}, rc=0
    ),
}
PROBES = REFUSED | WORKS


def _setup(folder: Path) -> None:
    folder.mkdir()
    (folder / "code").mkdir()
    (folder / "code/train.py").write_text("print('hi')\n")
    (folder / "loop").symlink_to("loop")
    (folder / "a").symlink_to("b")
    (folder / "b").symlink_to("a")
    (folder / "code/self.py").symlink_to("self.py")
    made = run_cli("export", "-o", "good.yml", "--set", "code=code", cwd=folder)
    assert made.rc == 0, made.stderr
    text = (folder / "good.yml").read_text()
    (folder / "loop.yml").write_text(text.replace("code: code", "code: loop"))
    assert "code: loop" in (folder / "loop.yml").read_text()
    os.mkfifo(folder / "fifo")
    (folder / "home/config/presets").mkdir(parents=True)
    os.mkfifo(folder / "home/config/presets/f.yaml")


def _run(probe: Probe, folder: Path) -> Outcome:
    _setup(folder)
    env = {k: str(folder / v) if k == "DTRAIN_TUI_HOME" else v for k, v in probe.env.items()}
    return run_cli(*probe.args, cwd=folder, env=env, tty=probe.tty)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Outcome, Path]]:
    root = tmp_path_factory.mktemp("paths")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            name: (pool.submit(_run, probe, root / f"p{i}"), root / f"p{i}")
            for i, (name, probe) in enumerate(PROBES.items())
        }
        return {name: (f.result(), folder) for name, (f, folder) in futures.items()}


def _clean(name: str, out: Outcome) -> None:
    assert not out.timed_out, f"{name}: still running at the ceiling (a hang)"
    assert "Traceback" not in out.stderr, out.stderr
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr, repr(out.stderr)


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_in_one_line(name: str, outcomes) -> None:
    out, folder = outcomes[name]
    _clean(name, out)
    assert out.rc == PROBES[name].rc, out.stderr
    assert len(out.err_lines) == 1, out.err_lines
    assert out.err_lines[0].startswith("dtrain-tui: error: "), out.err_lines
    assert PROBES[name].says in out.err_lines[0]
    assert not (folder / "home/state/jobs").exists()  # nothing started


def test_a_refused_fifo_is_left_as_it_was(outcomes) -> None:
    _, folder = outcomes["export --force onto a FIFO"]
    assert (folder / "fifo").is_fifo()
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []


def test_a_name_that_is_not_utf8_is_written_and_said_as_its_bytes(outcomes) -> None:
    out, folder = outcomes["export to a name that is not UTF-8"]
    _clean("", out)
    assert out.rc == 0, out.stderr
    assert (folder / f"{BAD}.yml").is_file()
    assert out.stdout.startswith(b"wrote bad\xff.yml ("), out.stdout  # piped: byte-exact


def test_a_name_with_an_osc_is_shown_escaped_on_a_terminal(outcomes) -> None:
    out, folder = outcomes["export to a name with an OSC, on a terminal"]
    _clean("", out)
    assert out.rc == 0, out.stderr
    assert (folder / f"x{OSC}.yml").is_file()
    assert b"\x1b]" not in out.stdout and b"\x07" not in out.stdout, out.stdout
    assert b"wrote x\\x1b]0;pwned\\x07.yml" in out.stdout, out.stdout


def test_a_fifo_among_the_presets_is_one_warning(outcomes) -> None:
    out, _ = outcomes["presets with a FIFO among the user's"]
    _clean("", out)
    assert out.rc == 0 and b"pytorch-ddp" in out.stdout
    assert len(out.err_lines) == 1 and "f.yaml: a named pipe (FIFO), not a file" in out.stderr


def test_export_to_a_fifo_someone_reads_is_still_refused(tmp_path: Path) -> None:
    """A reader on the other end changes nothing: export writes files (`-o -` is for pipes)."""
    os.mkfifo(tmp_path / "fifo")
    reader = subprocess.Popen(["cat", str(tmp_path / "fifo")], stdout=subprocess.PIPE)
    try:
        out = run_cli("export", "--force", "-o", "fifo", cwd=tmp_path)
    finally:
        # Let cat see an end if it still waits (ENXIO: nobody reads any more).
        with contextlib.suppress(OSError):
            os.close(os.open(tmp_path / "fifo", os.O_WRONLY | os.O_NONBLOCK))
        reader.communicate(timeout=10)
    assert out.rc == 2 and "a named pipe (FIFO), not a file" in out.stderr, out.stderr
