"""Files left no more open than they were (issue 28): `export --force` over a 0600 file keeps
0600, a new file honours the umask, and a file that may hold secrets is 0600 whatever the umask
or the mode of the file it replaces. One writer does it (tui/core/files.py's `atomic_file`):
the CLI's export, the app's export and saved presets all go through it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.hostile.probes import run_cli
from tui.core.files import PRIVATE, PUBLIC, write_atomic


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask():
    """Sets the process's umask for one test, then puts the old one back."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


@pytest.mark.parametrize("before", [0o600, 0o640, 0o664, 0o444])
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask, before: int) -> None:
    path = tmp_path / "job.yml"
    path.write_text("old\n")
    path.chmod(before)
    write_atomic(path, "new\n")
    assert path.read_text() == "new\n" and mode(path) == before


@pytest.mark.parametrize(("mask", "expected"), [(0o077, 0o600), (0o027, 0o640), (0o022, 0o644)])
def test_a_new_file_honours_the_umask(tmp_path: Path, umask, mask: int, expected: int) -> None:
    umask(mask)
    write_atomic(tmp_path / "job.yml", "new\n", PUBLIC)
    assert mode(tmp_path / "job.yml") == expected


@pytest.mark.parametrize("before", [None, 0o644, 0o666, 0o600])
def test_secrets_stay_the_owners_only(tmp_path: Path, umask, before: int | None) -> None:
    umask(0o000)
    path = tmp_path / "job.yml"
    if before is not None:
        path.write_text("old\n")
        path.chmod(before)
    write_atomic(path, "HF_TOKEN: x\n", PRIVATE)
    assert mode(path) == 0o600


def test_the_cli_export_keeps_modes(tmp_path: Path) -> None:
    (tmp_path / "mine.yml").write_text("old\n")
    (tmp_path / "mine.yml").chmod(0o600)
    out = run_cli("export", "--force", "-o", "mine.yml", cwd=tmp_path)
    assert out.rc == 0, out.stderr
    assert mode(tmp_path / "mine.yml") == 0o600 and b"wrote mine.yml" in out.stdout

    strict = ["sh", "-c", 'umask 077; "$@"', "probe"]
    out = run_cli("export", "-o", "new.yml", cwd=tmp_path, wrap=strict)
    assert out.rc == 0, out.stderr
    assert mode(tmp_path / "new.yml") == 0o600

    (tmp_path / "shared.yml").write_text("old\n")
    (tmp_path / "shared.yml").chmod(0o644)
    secret = ["--set", "env.WANDB_API_KEY=abc"]
    out = run_cli("export", "--force", "-o", "shared.yml", *secret, cwd=tmp_path)
    assert out.rc == 0, out.stderr
    assert mode(tmp_path / "shared.yml") == 0o600
