"""How fast dtrain-tui stops and gives up: the figures the tests no longer assert.

Run: .venv/bin/python tests/benchmarks/bench_stops.py [--runs 3]   (prints figures; no pass/fail)

1. Local cancel: `LocalBackend.cancel()` on a 2 × 2 job of `ranks.py`, until every rank is gone
   (per process, and under torchrun / mpirun when they are installed).
2. A failing rank: from the job's start to its end when rank 3 exits 1 and the others are stopped
   (the job's own `duration`; rank 3 fails after 1 s).
3. No Azure credentials: the in-process sign-in check with no az/azd on PATH, and the CLI
   `submit --target azure` from spawn to its exit 2 (a new Python and its imports included).
4. A hung credential: how long `check_sign_in(timeout=0.3)` takes to give up.
5. The follower's idle pause cut short by `done`: from setting the event to `collect()` returning.

The tests check the behaviour (everything stops, one line, no request, the pause ends on the
event) with ceilings far above these figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.backends.conftest import SCRIPTS, local_plan, running, started_pids  # noqa: E402
from tui.backends.base import BackendError  # noqa: E402
from tui.backends.local import LocalBackend  # noqa: E402
from tui.core.spec import JobSpec  # noqa: E402
from tui.logs.follower import LogFollower, Timing  # noqa: E402

MODES = {
    "per-process": ({"framework": "pytorch", "launch": "per_process"}, None),
    "torchrun": ({"framework": "pytorch", "launch": "per_node"}, "torchrun"),
    "mpirun": ({"framework": "horovod", "launch": "per_process"}, "mpirun"),
}


def _spec(mode: str, *args: str) -> JobSpec:
    fields, _ = MODES[mode]
    code = str(SCRIPTS)
    return JobSpec(
        **fields, nodes=2, gpus_per_node=2, sku=None, code=code, script="ranks.py", args=args
    )


def _has(tool: str | None) -> bool:
    return tool is None or bool(
        shutil.which(tool, path=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    )


def _spread(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f})"
    )


def cancel_seconds(backend: LocalBackend, mode: str) -> float:
    job = backend.submit(local_plan(_spec(mode, "--seconds", "600")))
    procs = started_pids(Path(job.location), 4, timeout=120)
    started = time.perf_counter()
    backend.cancel(job)
    while any(running(p) for p in procs.values()):
        time.sleep(0.01)
    return time.perf_counter() - started


def failure_seconds(backend: LocalBackend) -> float:
    job = backend.submit(local_plan(_spec("per-process", "--fail-rank", "3", "--fail-after", "1")))
    status = backend.wait(job, timeout=120)
    assert status.duration is not None, status
    return status.duration


def sign_in_seconds(empty_path: str) -> float:
    from tui.backends.azureml import AzureMLBackend

    saved = os.environ["PATH"]
    os.environ["PATH"] = empty_path
    try:
        backend = AzureMLBackend(subscription="s", resource_group="r", workspace_name="w")
        started = time.perf_counter()
        try:
            backend.sign_in()
        except BackendError:
            return time.perf_counter() - started
        raise SystemExit("signed in without credentials?")
    finally:
        os.environ["PATH"] = saved


def cli_no_credentials_seconds(tmp: Path) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE", "MSI_", "IDENTITY_"))}
    env |= {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",  # no az, no azd
        "PYTHONPATH": str(ROOT),
        "DTRAIN_TUI_HOME": str(tmp / "home"),
        "AZURE_SUBSCRIPTION_ID": "00000000-0000-0000-0000-000000000000",
        "AZURE_RESOURCE_GROUP": "rg",
        "AZUREML_WORKSPACE_NAME": "ws",
    }
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tui", "submit", "--target", "azure", "--preset", "pytorch-ddp"],
        env=env,
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=120,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 2:
        raise SystemExit(f"expected exit 2, got {done.returncode}: {done.stderr}")
    return elapsed


def hung_credential_seconds() -> float:
    from tui.backends.azureml.workspace import check_sign_in

    release = threading.Event()

    class Hanging:
        def get_token(self, *scopes, **kwargs):
            release.wait()

    started = time.perf_counter()
    try:
        check_sign_in(Hanging(), timeout=0.3)
    except BackendError:
        return time.perf_counter() - started
    finally:
        release.set()
    raise SystemExit("a hung credential passed the check?")


async def pause_cut_seconds(tmp: Path) -> float:
    from tui.logs.sources import FileSource

    path = tmp / "log.txt"
    path.write_bytes(b"a\n")
    done = asyncio.Event()
    follower = LogFollower(
        FileSource(path), done=done, timing=Timing(min_interval=3600.0, max_interval=3600.0)
    )
    task = asyncio.create_task(follower.collect())
    await asyncio.sleep(0.2)  # well into the idle pause
    started = time.perf_counter()
    done.set()
    await task
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {runs} runs each")

    def figure(label: str, measure: Callable[[], float]) -> None:
        print(f"{label}: {_spread([measure() for _ in range(runs)])}", flush=True)

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        os.environ["DTRAIN_TUI_HOME"] = str(tmp / "home")
        backend = LocalBackend(tmp / "jobs", gpus=[], grace=2.0)
        for mode, (_, tool) in MODES.items():
            if _has(tool):
                figure(
                    f"local cancel, {mode}, to every rank gone",
                    lambda m=mode: cancel_seconds(backend, m),
                )
            else:
                print(f"local cancel, {mode}: {tool} not installed, skipped")
        figure("rank 3 fails after 1 s, job start to end", lambda: failure_seconds(backend))
        (tmp / "empty").mkdir()
        figure("sign-in, no credentials (in process)", lambda: sign_in_seconds(str(tmp / "empty")))
        figure(
            "CLI submit --target azure, no credentials, to exit 2",
            lambda: cli_no_credentials_seconds(tmp),
        )
        figure("hung credential, check_sign_in(timeout=0.3)", hung_credential_seconds)
        figure(
            "follower's 1 h idle pause, done set to collect() returning",
            lambda: asyncio.run(pause_cut_seconds(tmp)),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
