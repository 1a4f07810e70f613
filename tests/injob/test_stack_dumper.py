"""The in-job stack dumper (tui/injob/sitecustomize.py) in a real Python process, and in the
plan: a user sitecustomize still runs, SIGUSR1 prints every thread's stack without ending the
process, a main thread stuck in one place prints its stacks on its own, the process exits as
before, and each sample of the watch costs microseconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tui.core.spec import JobSpec
from tui.logs.stacks import group, odd_one_out, parse_dumps, summary
from tui.planning.plan import Target, plan
from tui.planning.stacks_env import HELPER

SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, time
    def load_batch():
        time.sleep(float(sys.argv[1]))
    if len(sys.argv) > 2:
        os.kill(os.getpid(), signal.SIGUSR1)
    load_batch()
    print("done", flush=True)
    """
)


def _run(tmp_path: Path, *args: str, minutes: str = "10") -> subprocess.CompletedProcess[str]:
    user = tmp_path / "user"
    user.mkdir(exist_ok=True)
    (user / "sitecustomize.py").write_text("print('user sitecustomize ran', flush=True)\n")
    script = tmp_path / "data.py"
    script.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"PYTHONPATH": f"{HELPER.parent}{os.pathsep}{user}", "DTRAIN_STACKS": minutes}
    return subprocess.run(
        [sys.executable, str(script), *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_a_signal_prints_every_thread_and_the_user_sitecustomize_still_runs(tmp_path):
    done = _run(tmp_path, "0.2", "signal")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["user sitecustomize ran", "done"]
    dumps = parse_dumps(enumerate(done.stderr.splitlines(), 1))
    assert len(dumps) == 1 and not dumps[0].stalled
    assert dumps[0].frames[0].function == "<module>"  # the main thread, where it sent it


def test_a_main_thread_stuck_in_one_place_prints_its_stacks_on_its_own(tmp_path):
    done = _run(tmp_path, "2", minutes="0.01")  # 0.6 s in one place
    assert done.returncode == 0, done.stderr
    dumps = parse_dumps(enumerate(done.stderr.splitlines(), 1))
    assert len(dumps) == 1 and dumps[0].stalled, done.stderr
    assert [f.function for f in dumps[0].frames] == ["load_batch", "<module>"]
    assert dumps[0].threads == 1  # the watch's own thread is left out


def test_the_process_exits_as_before_with_the_watch_running(tmp_path):
    # The watch sleeps 30 s between looks at N=10: a watch that held the exit would run into
    # _run's timeout instead of returning.
    done = _run(tmp_path, "0", minutes="10")
    assert done.returncode == 0 and "done" in done.stdout


def test_the_watch_has_ended_before_the_interpreter_shuts_down(tmp_path):
    # Exit handlers run before finalisation: ours stops the watch and joins it, so no thread of
    # ours is alive while a rank that ended at once shuts down (a daemon thread still starting
    # then is the likely cause of a rank once lost to SIGSEGV).
    script = tmp_path / "ends.py"
    script.write_text(
        "import atexit, threading\n"
        "(t,) = [x for x in threading.enumerate() if x.name == 'dtrain-tui stacks']\n"
        "atexit._run_exitfuncs()\n"
        "print('alive' if t.is_alive() else 'ended', flush=True)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"PYTHONPATH": str(HELPER.parent), "DTRAIN_STACKS": "10"}
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "ended\n"), done.stderr


def _catches_usr1(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    caught = int(next(line.split()[1] for line in status if line.startswith("SigCgt:")), 16)
    return bool(caught >> (signal.SIGUSR1 - 1) & 1)


def test_a_launcher_named_in_skip_is_left_alone(tmp_path):
    launcher = tmp_path / "torchrun"
    launcher.write_text("import time\ntime.sleep(30)\n")
    env = os.environ | {"PYTHONPATH": str(HELPER.parent), "DTRAIN_STACKS": "10"}
    procs = [
        subprocess.Popen([sys.executable, str(launcher)], env=env | {"DTRAIN_STACKS_SKIP": skip})
        for skip in ("torchrun", "other")
    ]
    try:
        deadline = time.monotonic() + 60  # until the other one has armed (start-up, not speed)
        while not _catches_usr1(procs[1].pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [_catches_usr1(p.pid) for p in procs] == [False, True]
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_the_plan_sets_the_dumper_in_every_rank_here_and_one_field_turns_it_off():
    spec = JobSpec(nodes=2, gpus_per_node=2, sku=None, env={"PYTHONPATH": "src"})
    local = plan(spec, Target.local())
    env = local.ranks[3].env_dict()
    assert env["PYTHONPATH"] == f"{HELPER.parent}:src" and env["DTRAIN_STACKS"] == "10"
    assert next(v for v in local.ranks[0].env if v.name == "DTRAIN_STACKS").origin.value == (
        "dtrain-tui"
    )
    assert any("stack dumper" in e for e in local.explanations)
    off = plan(spec.with_changes(stacks=0), Target.local())
    assert "DTRAIN_STACKS" not in off.ranks[0].env_dict()


def test_a_per_node_launcher_is_named_so_it_arms_nothing():
    spec = JobSpec(launch="per_node", nodes=2, gpus_per_node=2, sku=None)
    node = {v.name: v.value for v in plan(spec, Target.local()).nodes[0].env}
    assert node["DTRAIN_STACKS_SKIP"].split(",")[0] == "torchrun"


DUMP = """step 7
Thread 0x00007f0000000001 (most recent call first):
  File "/x/sitecustomize.py", line 83 in watch

Current thread 0x00007f0000000002 (most recent call first):
  File "/usr/lib/python3.11/site-packages/torch/distributed/c10d.py", line 3252 in all_reduce
  File "/job/code/train.py", line 88 in train_step
  File "/job/code/train.py", line 120 in <module>
"""
ODD = """Thread 0x00007f0000000003 (most recent call first):
  File "/job/nodes/1/code/data.py", line 41 in load_batch
  File "/job/nodes/1/code/train.py", line 119 in <module>
"""


def test_identical_stacks_group_and_the_odd_rank_leads():
    dumps = {r: parse_dumps(enumerate(DUMP.splitlines(), 1))[0] for r in (0, 1, 2, 4, 6, 7)}
    dumps[5] = parse_dumps(enumerate(ODD.splitlines(), 1))[0]
    dumps[3] = parse_dumps(
        enumerate(DUMP.replace("/job/code", "/job/nodes/1/code").splitlines(), 1)
    )[0]
    groups = group(dumps, source=lambda f: "time.sleep(600)" if f.line == 41 else None)
    assert summary(groups) == (
        "rank 5: time.sleep ← load_batch data.py:41 · 7 ranks: all_reduce ← train_step train.py:88"
    )
    assert odd_one_out(groups) == 5
