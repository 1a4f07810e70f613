"""Jobs broken for real on this machine (the local backend, real processes, torch's gloo): the
doctor names the rank that broke each one and why, from the job's logs alone.

The six jobs run at once (each is mostly waiting: a gloo timeout of 5 s, a rank killing itself)
so the whole file takes about as long as the slowest job.
"""

from __future__ import annotations

import json
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from tests.backends.conftest import local_plan, require
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.cli.commands import main
from tui.core.plan_types import Target
from tui.core.spec import JobSpec
from tui.logs.doctor import diagnose, load_path
from tui.planning.plan import plan

pytestmark = pytest.mark.slow

SCRIPTS = Path(__file__).parent / "scripts"

# mode → (the rank that breaks, the cause the doctor must name)
BREAKS = {
    "raise": (1, "user_code_error"),
    "import": (2, "import_error"),
    "sigkill": (2, "host_oom_killed"),
    "hang": (2, "nccl_timeout"),
    "port": (0, "address_in_use"),
    "world": (2, "world_size_mismatch"),
}


def spec(mode: str, rank: int) -> JobSpec:
    return JobSpec(
        framework="pytorch",
        launch="per_process",
        nodes=1,
        gpus_per_node=3,
        sku=None,
        code=str(SCRIPTS),
        script="breaks.py",
        args=("--mode", mode, "--rank", str(rank), "--timeout", "5"),
    )


def run_broken(backend: LocalBackend, mode: str):
    rank, _ = BREAKS[mode]
    broken = spec(mode, rank)
    p = local_plan(broken)
    held = None
    if mode == "port":
        # Another process already listens on the job's rendezvous port: taken first, then given
        # to the plan (a free port picked by the plan could go to a job running beside this one).
        held = socket.socket()
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind(("", 0))
        held.listen()
        taken = held.getsockname()[1]
        p = plan(broken, replace(Target.for_spec("local", broken), master_port=taken))
        assert p.ranks[0].env_dict()["MASTER_PORT"] == str(taken)
    try:
        job = backend.submit(p)
        status = backend.wait(job, timeout=120)
    finally:
        if held is not None:
            held.close()
    return job, status


def test_the_doctor_names_the_rank_and_cause_of_every_real_break(backend: LocalBackend, capsys):
    require("torch")
    with ThreadPoolExecutor(len(BREAKS)) as pool:
        runs = pool.map(lambda m: run_broken(backend, m), BREAKS)
        results = dict(zip(BREAKS, runs, strict=True))
    wrong = {}
    for mode, (job, status) in results.items():
        assert status.state is JobState.FAILED, f"{mode}: {status.summary()}"
        logs, mtimes = load_path(Path(job.location))
        got = diagnose(logs, mtimes, failed=True)
        print(f"{mode}: rank {got.rank} {got.cause}: {got.evidence.log}:{got.evidence.line}")
        if (got.rank, got.cause) != BREAKS[mode]:
            wrong[mode] = (got.rank, got.cause, got.evidence, status.summary())
    assert not wrong, wrong
    # The same by the job's name, as a user types it (exit 1: a failure was diagnosed).
    capsys.readouterr()
    assert main(["doctor", results["raise"][0].name, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["cause"], out["rank"]) == ("user_code_error", 1)
    assert out["lines"][0]["text"].startswith("ValueError: batch 3 has 3 channels")
    assert out["evidence"][0] == f"{out['lines'][0]['log']}:{out['lines'][0]['line']}"
