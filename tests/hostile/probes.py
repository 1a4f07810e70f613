"""Running `dtrain-tui` the way an attacker or an unlucky user would: capped and measured.

`run_cli` starts the real entry point in a fresh interpreter under a 1 GB address-space cap
(`RLIMIT_AS`) and a wall-clock ceiling, and reports exit code, output and peak memory: the
interpreter's own `VmHWM` at exit (`ru_maxrss` would count the forking test process too, which
the child inherits as its high-water mark). `wrap` puts a command in front, e.g. `unshare` to
give the probe a tiny filesystem of its own; `tty=True` gives it a pseudo-terminal as stdout.
"""

from __future__ import annotations

import os
import pty
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# `python -m tui`, plus the peak resident memory written at exit to $DTRAIN_PROBE_HWM.
_BOOT = """
import atexit, os, runpy, sys
def _hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            open(os.environ["DTRAIN_PROBE_HWM"], "w").write(line.split()[1])
atexit.register(_hwm)
sys.argv = ["dtrain-tui", *sys.argv[1:]]
runpy.run_module("tui", run_name="__main__", alter_sys=True)
"""
MEMORY_CAP = 1 << 30
CEILING = 30.0
"""Seconds a probe may run before it counts as hung: a hang detector, not a speed bound (the
suite runs its files side by side, and a busy 2-core machine stretches a 2 s refusal to 9 s;
speed is tests/benchmarks/'s to print)."""


@dataclass(frozen=True)
class Outcome:
    """What a probe did: exit code, output, seconds, peak resident memory."""

    rc: int
    stdout: bytes
    stderr: str
    seconds: float
    peak_mb: float
    timed_out: bool

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    os.setsid()


def run_cli(
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    tty: bool = False,
    wrap: Sequence[str] = (),
    ceiling: float = CEILING,
    stdin: bytes = b"",
    root: Path = ROOT,
) -> Outcome:
    """`python -m tui ARGS` (after `wrap`, if any) capped at 1 GB and `ceiling` seconds; `root`
    is the source tree to run (the benchmark runs an older checkout too)."""
    argv = [*wrap, sys.executable, "-c", _BOOT, *args]
    hwm = tempfile.NamedTemporaryFile(prefix="hwm-", delete=False)  # noqa: SIM115
    hwm.close()
    full_env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "TERM": "xterm-256color",
        "DTRAIN_PROBE_HWM": hwm.name,
        **(env or {}),
    }
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        master = slave = None
        chunks: list[bytes] = []
        if tty:
            master, slave = pty.openpty()
        start = time.monotonic()
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=full_env,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=slave if tty else out,
            stderr=err,
            preexec_fn=_cap,
        )
        if stdin:
            assert proc.stdin is not None
            proc.stdin.write(stdin)
            proc.stdin.close()
        reader = None
        if tty:
            assert master is not None and slave is not None
            os.close(slave)
            reader = threading.Thread(target=_drain, args=(master, chunks), daemon=True)
            reader.start()
        rc, maxrss, timed_out = _wait(proc, start + ceiling)
        seconds = time.monotonic() - start
        if reader is not None:
            reader.join(5)
        out.seek(0)
        err.seek(0)
        stdout = b"".join(chunks) if tty else out.read()
        stderr = err.read().decode("utf-8", "replace")
    peak = Path(hwm.name).read_text().strip()
    os.unlink(hwm.name)
    # Killed (no atexit): the high-water mark wait4 saw, an upper bound.
    return Outcome(rc, stdout, stderr, seconds, int(peak or maxrss) / 1024, timed_out)


def _wait(proc: subprocess.Popen[bytes], deadline: float) -> tuple[int, int, bool]:
    """(exit code, peak RSS in KB, timed out) — the whole process group is killed at `deadline`."""
    timed_out = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage.ru_maxrss, timed_out
        if time.monotonic() > deadline and not timed_out:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
        time.sleep(0.01)


def _drain(fd: int, chunks: list[bytes]) -> None:
    while True:
        ready, _, _ = select.select([fd], [], [], 10)
        if not ready:
            break
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(fd)


def userns_problem() -> str | None:
    """Why this machine cannot give a probe its own tiny filesystem, or None when it can."""
    if shutil.which("unshare") is None:
        return "`unshare` (util-linux) is not installed; tests/setup.sh installs it"
    probe = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "true"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return (
            "user namespaces are not available here (`unshare --user --map-root-user --mount "
            f"true` said: {probe.stderr.strip()}); the full-disk probes need them"
        )
    return None


def on_tiny_disk(folder: Path, setup: str, after: str = "true", size_kb: int = 64) -> list[str]:
    """A `wrap` that mounts a `size_kb` tmpfs on `folder` in a mount namespace of its own (so
    nothing outside sees it and it goes when the probe ends), runs the shell `setup` there,
    then the probe, then `after` (which may copy what the test reads to outside the mount)."""
    script = (
        f'mount -t tmpfs -o size={size_kb}k tmpfs "{folder}" && cd "{folder}" && {setup} '
        f'|| exit 99; "$@"; rc=$?; {after}; exit $rc'
    )
    return ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "probe"]


FILL = "(dd if=/dev/zero of=filler bs=4k 2>/dev/null || true)"
"""Shell that fills the current filesystem to the last block."""
