"""Benchmark: the Azure ML backend against the workspace emulator (tests/azure/emulator.py).

    .venv/bin/python tests/benchmarks/bench_azure.py [--runs 5]

Starts Azurite and the emulator (HTTPS on loopback, its own CA), then measures:

1. `dtrain-tui submit --target azure` wall time, from starting the command to its first stdout
   line (the job name): a new Python, the spec and plan, azure-ai-ml's import, the sign-in (a
   stand-in `az` prints the token, as a signed-in Azure CLI would), the compute and quota check
   (cluster GET, VM sizes, usages) and the submit (code lookup by hash, job PUT). For scale, the
   same submit from a warm backend in this process.
2. First-log-line latency after the job starts: the rank's first line carries `time.time()` at
   its print; the latency is from then until `LogFollower` (the job screen's timing) delivers it,
   through the local file, the emulator's pump into an Azurite append blob, and Range reads on
   the SAS URL from Run History. The follower starts before the job, as the job screen does;
   each rank stays silent for a random 0-6 s first, so its first line meets the follower at a
   random point of its polling (0.5 s while data flows, slowing to 3 s when idle).

The emulator publishes log bytes every 50 ms; Azure ML's own upload cadence (not emulated) adds
to the second figure on a real cluster.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.azure.conftest import SCRIPTS, StaticCredential, workspace_of  # noqa: E402
from tests.azure.emulator import WorkspaceEmulator  # noqa: E402
from tests.azure.test_cli_azure import LINES_JOB, cli_env  # noqa: E402
from tests.logs.azurite import AZURITE_BIN, MISSING, Azurite  # noqa: E402
from tui.backends.azureml import AzureMLBackend  # noqa: E402
from tui.core.spec import JobSpec  # noqa: E402
from tui.logs.follower import LogFollower  # noqa: E402
from tui.planning.plan import plan  # noqa: E402


def cli_submit_seconds(env: dict[str, str], cwd: Path) -> float:
    """Seconds from spawning `dtrain-tui submit --target azure` to reading its first line."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "submit", "--target", "azure", *LINES_JOB],
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    name = proc.stdout.readline().strip()
    elapsed = time.perf_counter() - started
    _, err = proc.communicate(timeout=60)
    if proc.returncode != 0 or not name:
        raise SystemExit(f"submit failed ({proc.returncode}): {err}")
    return elapsed


async def first_line_latency(backend: AzureMLBackend, quiet: float) -> float:
    """Seconds from the rank's first print (after `quiet` s of silence) to its delivery."""
    spec = JobSpec(
        framework="pytorch",
        launch="per_process",
        nodes=1,
        gpus_per_node=1,
        sku=None,
        code=str(SCRIPTS),
        script="lines.py",
        shm_size=None,
        args=("--stamp", "--quiet-for", str(quiet), "--lines", "5", "--every", "0.1"),
    )
    job = await asyncio.to_thread(backend.submit, plan(spec))
    name = "user_logs/std_log_process_0.txt"
    while name not in (sources := await asyncio.to_thread(backend.log_sources, job)):
        await asyncio.sleep(0.2)  # the job screen re-lists logs on its status polls
    async for update in LogFollower(sources[name]):
        for line in update.lines:
            if line.startswith("stamp "):
                latency = time.time() - float(line.split()[1])
                await asyncio.to_thread(backend.cancel, job)
                return latency
    raise AssertionError("no stamp line")


def _spread(values: list[float], unit: str) -> str:
    digits = 2 if unit == "s" else 0
    median, low, high = statistics.median(values), min(values), max(values)
    low, middle, high = (f"{v:.{digits}f} {unit}" for v in (low, median, high))
    return f"median {middle}, min {low}, max {high}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not AZURITE_BIN.exists():
        raise SystemExit(MISSING)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        with (
            Azurite(tmp_path / "azurite") as azurite,
            WorkspaceEmulator(azurite, tmp_path / "workspace") as em,
        ):
            em.register_code(SCRIPTS)
            os.environ["AZUREML_DEV_URL_MFE"] = em.base_url
            os.environ["REQUESTS_CA_BUNDLE"] = str(em.ca_file)
            env = cli_env(tmp_path, em)
            print(f"CLI `submit --target azure` to job name, {args.runs} runs:")
            cli = [cli_submit_seconds(env, tmp_path) for _ in range(args.runs)]
            print(f"  {_spread(cli, 's')}")
            backend = AzureMLBackend(workspace_of(em), StaticCredential())
            warm = []
            for _ in range(args.runs + 1):
                p = plan(JobSpec(code=str(SCRIPTS), script="lines.py", sku=None, gpus_per_node=1))
                started = time.perf_counter()
                backend.submit(p)
                warm.append(time.perf_counter() - started)
            median = statistics.median(warm[1:]) * 1000
            print(
                f"  in-process submit, warm client: median {median:.0f} ms (first {warm[0]:.2f} s)"
            )
            em.run_jobs = True
            jobs = 2 * args.runs
            print(f"First log line after the job starts, {jobs} jobs (job-screen timing):")
            rng = random.Random(7)
            quiet = [rng.uniform(0.0, 6.0) for _ in range(jobs)]  # the follower's poll phase
            found = [asyncio.run(first_line_latency(backend, q)) * 1000 for q in quiet]
            p90 = statistics.quantiles(found, n=10)[-1]
            print(f"  {_spread(found, 'ms')}, p90 {p90:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
