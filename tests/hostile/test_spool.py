"""The log view's spool leaves nothing behind (issue 28): closing the terminal (SIGHUP) or
ending the session (SIGTERM) while a log is open deletes the view's spool copy from the cache
folder, as leaving the view does; one left by a SIGKILL is deleted at the next start.

`dtrain-tui logs NAME` runs on a pseudo-terminal (stdin, stdout and stderr), as from a shell;
its output is drained so it never blocks. Waits are for files to appear, with a deadline.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.hostile.probes import ROOT, _drain, run_cli


def _wait_for(predicate, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def finished_job(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A finished local job whose rank 0 log has 20,000 lines; (its home, its name)."""
    folder = tmp_path_factory.mktemp("spool")
    (folder / "lines.py").write_text("for i in range(20_000):\n    print('step', i)\n")
    out = run_cli(
        "submit", "--wait", "--set", "code=.", "--set", "script=lines.py", "--set", "sku=",
        "--set", "nodes=1", "--set", "gpus_per_node=1",
        cwd=folder, env={"DTRAIN_TUI_HOME": str(folder / "home")}, ceiling=60,
    )  # fmt: skip
    assert out.rc == 0, out.stderr
    (job,) = (folder / "home/state/jobs").iterdir()
    return folder / "home", job.name


def _open_log(home: Path, name: str) -> tuple[subprocess.Popen, threading.Thread]:
    leader, follower = pty.openpty()
    env = {**os.environ, "DTRAIN_TUI_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env["TERM"] = "xterm-256color"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "logs", name],
        stdin=follower, stdout=follower, stderr=follower,
        cwd=home, env=env, start_new_session=True,
    )  # fmt: skip
    os.close(follower)
    reader = threading.Thread(target=_drain, args=(leader, []), daemon=True)
    reader.start()
    return proc, reader


def _spools(home: Path) -> list[Path]:
    return sorted((home / "cache/spool").glob("log-*.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_a_signal_while_a_log_is_open_leaves_no_spool(finished_job, sig: int) -> None:
    home, name = finished_job
    proc, reader = _open_log(home, name)
    try:
        _wait_for(lambda: any(p.stat().st_size > 0 for p in _spools(home)), "the spool")
        os.kill(proc.pid, sig)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
        reader.join(5)
    assert _spools(home) == []


@pytest.mark.slow
def test_a_spool_left_by_sigkill_is_deleted_at_the_next_start(finished_job) -> None:
    home, name = finished_job
    proc, reader = _open_log(home, name)
    try:
        _wait_for(lambda: any(p.stat().st_size > 0 for p in _spools(home)), "the spool")
        (left,) = _spools(home)
        os.kill(proc.pid, signal.SIGKILL)  # nothing in the process runs: the spool stays
        proc.wait(timeout=20)
        reader.join(5)
        assert left.exists()
        old = time.time() - 3600  # and a process number taken since by a live process
        reused = home / f"cache/spool/log-{os.getpid()}-reused.txt"
        reused.write_text("stale\n")
        os.utime(reused, (old, old))
        proc, reader = _open_log(home, name)
        _wait_for(lambda: not left.exists() and not reused.exists(), "the stale spools to go")
        os.kill(proc.pid, signal.SIGHUP)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
        reader.join(5)
    assert _spools(home) == []


def test_a_spool_is_tracked_before_it_exists(tmp_path, monkeypatch) -> None:
    """A signal between the spool's creation and its tracking left it behind (one full run saw
    the test above find the second view's spool after its SIGHUP): the file is now made only
    once its deletion on every way out is arranged, and only its user may read it."""
    from widgets import log_spools

    seen: list[bool] = []
    real_open = os.open

    def open_(path, flags, mode=0o777):
        seen.append(Path(path) in log_spools._OPEN_SPOOLS)  # a signal here deletes it
        return real_open(path, flags, mode)

    monkeypatch.setattr(log_spools.os, "open", open_)
    path, fd = log_spools.new_spool(tmp_path)
    os.close(fd)
    try:
        assert seen == [True] and path.exists() and path.parent == tmp_path
        assert path.name.startswith(f"log-{os.getpid()}-") and path.stat().st_mode & 0o077 == 0
        log_spools._delete_open_spools()  # what SIGHUP, SIGTERM and exit do
        assert not path.exists()
    finally:
        log_spools.forget(path)
