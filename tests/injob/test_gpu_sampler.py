"""The GPU sampler (tui/injob/dtrain_tui_gpus.py) in a real rank started with the plan's own env:
local rank 0 of a node writes one marked line per sample from a fake `nvidia-smi` that prints
real outputs (data/nvidia_smi/SOURCES.md), the other ranks and the launcher write none, a
machine without `nvidia-smi` gets no word, and the plan shows the sampler with its switch."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tui.core.spec import JobSpec
from tui.injob.dtrain_tui_gpus import QUERY, parse_csv
from tui.logs.gpus import GpuWatch, is_sample, parse
from tui.planning.plan import Target, plan

SMI = Path(__file__).parent / "data" / "nvidia_smi"

FAKE = """#!{python}
import os, sys
with open(os.environ["FAKE_SMI_CALLS"], "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\\n")
sys.stdout.write(open(os.environ["FAKE_SMI_CSV"]).read())
"""

# The rank: says whether the sampler's thread runs, then waits (at most 30 s) until the fake
# nvidia-smi has been asked more than `wanted` times (so `wanted` samples were written: each is
# written before the next call), or, with no nvidia-smi, until the sampler has ended.
RANK = textwrap.dedent(
    """
    import os, sys, threading, time
    wanted = int(sys.argv[1])
    sampler = next((t for t in threading.enumerate() if t.name == "dtrain-tui gpus"), None)
    # armed: it took the node's name (its thread may already have ended, with no nvidia-smi)
    armed = bool(getattr(sys.modules.get("dtrain_tui_gpus"), "_HELD", None))
    print("sampler" if armed else "no sampler", os.environ.get("DTRAIN_GPU_SAMPLE"), flush=True)
    calls = os.environ["FAKE_SMI_CALLS"]
    deadline = time.monotonic() + 30
    while sampler and wanted and time.monotonic() < deadline:
        if os.path.exists(calls) and len(open(calls).read().splitlines()) > wanted:
            break
        time.sleep(0.02)
    if armed and not wanted:
        if sampler:
            sampler.join(30)
        print("still running" if sampler and sampler.is_alive() else "ended", flush=True)
    """
)


def _rank_env(rank: int, *, launch: str = "per_process", every: str = "0.05") -> dict[str, str]:
    spec = JobSpec(nodes=2, gpus_per_node=2, sku=None, launch=launch,
                   env={"DTRAIN_GPU_SAMPLE": every})  # fmt: skip
    return plan(spec, Target.local()).ranks[rank].env_dict()


def _run(tmp_path: Path, env: dict[str, str], csv: str | None, wanted: int, program: str = "rank"):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    if csv is not None:
        fake = bin_dir / "nvidia-smi"
        fake.write_text(FAKE.format(python=sys.executable))
        fake.chmod(0o755)
    script = tmp_path / program  # a launcher is known by its program's name
    script.write_text(RANK)
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LOCAL_RANK")}
    run_env = (
        base
        | env
        | {
            "PATH": f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}",
            "FAKE_SMI_CALLS": str(tmp_path / "calls.txt"),
            "FAKE_SMI_CSV": str(SMI / csv) if csv else "",
        }
    )
    # in its own folder, as each node's ranks run: the node's sampler is one per folder
    return subprocess.run([sys.executable, str(script), str(wanted)], env=run_env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def test_local_rank_0_writes_one_marked_line_per_sample_of_every_gpu(tmp_path):
    done = _run(tmp_path, _rank_env(2), "two_gpus.csv", wanted=3)
    assert done.returncode == 0, done.stderr
    # The plan's variable stays as the plan set it (the sampler adds nothing to the environment).
    assert done.stdout.splitlines()[0] == "sampler 0.05"
    samples = [parse(line) for line in done.stderr.splitlines() if is_sample(line)]
    assert len(samples) >= 3 and all(samples)
    assert {s.node for s in samples} == {"1"}  # rank 2 is node 1's local rank 0
    first = samples[0].gpus
    assert [(g.index, g.util, g.used, g.total) for g in first] == [
        (0, 0.0, 0.0, 12288.0),
        (1, 100.0, 15868.0, 16311.0),
    ]
    calls = (tmp_path / "calls.txt").read_text().splitlines()
    assert calls[0] == " ".join(QUERY)
    watch = GpuWatch()
    watch.feed(done.stderr.splitlines())
    assert watch.finding() is not None and watch.finding().startswith("GPU 0 idle 100 %")


def test_other_local_ranks_and_the_launcher_run_no_sampler(tmp_path):
    assert _run(tmp_path, _rank_env(3), "two_gpus.csv", 0).stdout.startswith("no sampler 0.05")
    node = plan(JobSpec(nodes=2, gpus_per_node=2, sku=None, launch="per_node"), Target.local())
    launcher_env = {v.name: v.value for v in node.nodes[0].env}
    skip = launcher_env["DTRAIN_STACKS_SKIP"].split(",")[0]
    done = _run(tmp_path, launcher_env, "two_gpus.csv", 0, program=skip)
    assert done.stdout.startswith("no sampler"), done.stdout


def test_no_nvidia_smi_no_word_and_the_sampler_ends(tmp_path):
    done = _run(tmp_path, _rank_env(0), None, wanted=0)
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["sampler 0.05", "ended"]
    assert not any(is_sample(line) for line in done.stderr.splitlines()), done.stderr


def test_a_gpu_that_does_not_say_is_a_dash_not_a_zero():
    rows = parse_csv((SMI / "not_available.csv").read_text())
    assert rows == [("0", "-", "3000", "-")]
    sample = parse("[rank0]: dtrain-tui gpus: node=0 t=1700000000 0:-,3000/-")
    assert sample is not None and sample.gpus[0].util is None and sample.gpus[0].used == 3000


def test_the_plan_shows_the_sampler_who_sets_it_and_how_to_turn_it_off():
    spec = JobSpec(nodes=2, gpus_per_node=2, sku=None)
    local = plan(spec, Target.local())
    env = {v.name: v for v in local.ranks[3].env}
    assert env["DTRAIN_GPU_SAMPLE"].value == "30" and env["DTRAIN_GPU_SAMPLE"].note
    assert env["DTRAIN_GPU_SAMPLE"].origin.value == "dtrain-tui"
    # the node is named as its launcher numbers it: one value per rank under any launcher
    assert "DTRAIN_NODE" not in env and env["NODE_RANK"].value == "1"
    why = next(e for e in local.explanations if e.startswith("GPU sampler"))
    assert "every 30 s" in why and "DTRAIN_GPU_SAMPLE=0" in why
    off = plan(spec.with_changes(env={"DTRAIN_GPU_SAMPLE": "0"}), Target.local())
    assert (
        "DTRAIN_GPU_SAMPLE" not in off.ranks[3].env_dict()
        or off.ranks[3].env_dict()["DTRAIN_GPU_SAMPLE"] == "0"
    )
    assert not any(e.startswith("GPU sampler") for e in off.explanations)
    # The stack dumper off, the sampler on: the module still reaches the ranks, unarmed.
    alone = plan(spec.with_changes(stacks=0), Target.local()).ranks[0].env_dict()
    assert "DTRAIN_STACKS" not in alone and alone["DTRAIN_GPU_SAMPLE"] == "30"


def test_one_process_per_node_samples_whatever_the_rank_starts(tmp_path, monkeypatch):
    # A rank's script that starts Python processes of its own (local rank 0 inherited): the
    # node's name, not an environment variable, keeps them from sampling the node again.
    monkeypatch.chdir(tmp_path)
    claim = "import sys, tui.injob.dtrain_tui_gpus as g; print(g._claim(sys.argv[1]))"
    first = subprocess.Popen([sys.executable, "-c", claim + "; sys.stdin.read()", "0"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert first.stdout.readline().strip() == "True"
        again = subprocess.run([sys.executable, "-c", claim, "0"], capture_output=True, text=True)
        other = subprocess.run([sys.executable, "-c", claim, "1"], capture_output=True, text=True)
        assert (again.stdout.strip(), other.stdout.strip()) == ("False", "True")
    finally:
        first.communicate("", timeout=30)
    after = subprocess.run([sys.executable, "-c", claim, "0"], capture_output=True, text=True)
    assert after.stdout.strip() == "True"  # the lock went with the process
