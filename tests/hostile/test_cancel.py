"""Cancel on a state folder that cannot be written (issue 28): the job's processes are stopped
first, and failing to record it is a warning, not a traceback that leaves them running.

The job runs in a mount namespace of its own (tests/hostile/probes.py's `unshare`): it is
submitted there, its state folder is then made read-only for everyone in it (its supervisor
too, as a remounted disk or a `chmod -R a-w` by another user would), and `cancel` runs there.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.probes import ROOT, userns_problem

LOCAL = "--set sku= --set nodes=1 --set gpus_per_node=2 --set code=. --set script=sleepy.py"
SCRIPT = f"""
"$PY" -m tui submit {LOCAL} > submit.out 2>&1 || exit 90
i=0
until grep -qs up home/state/jobs/*/user_logs/std_log_process_1.txt; do
    i=$((i + 1)); [ $i -gt 600 ] && exit 91; sleep 0.1
done
mount --bind home/state home/state && mount -o remount,bind,ro home/state || exit 92
touch home/state/jobs/probe 2>/dev/null && exit 93
"$PY" -m tui cancel "$(ls home/state/jobs)" > cancel.out 2> cancel.err
echo $? > cancel.rc
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_cancel_stops_the_job_when_its_state_cannot_be_written(tmp_path: Path) -> None:
    problem = userns_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    (tmp_path / "sleepy.py").write_text("import time\nprint('up', flush=True)\ntime.sleep(300)\n")
    env = {
        **os.environ,
        "PY": sys.executable,
        "PYTHONPATH": str(ROOT),
        "DTRAIN_TUI_HOME": str(tmp_path / "home"),
    }
    wrap = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", SCRIPT]
    done = subprocess.run(wrap, cwd=tmp_path, env=env, timeout=120, capture_output=True)
    (job,) = (tmp_path / "home/state/jobs").iterdir()
    record = json.loads((job / "job.json").read_text())
    pids = [p["pid"] for p in record.get("processes", [])]
    try:
        assert done.returncode == 0, (done.returncode, (tmp_path / "submit.out").read_text())
        assert len(pids) == 2, record
        deadline = time.monotonic() + 20
        while any(map(_alive, pids)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, pids)), "the job's processes still run after cancel"
        err = (tmp_path / "cancel.err").read_text()
        assert "Traceback" not in err, err
        assert (tmp_path / "cancel.rc").read_text().strip() == "0", err
        (line,) = err.splitlines()
        assert line.startswith("warning: job ") and "its processes are stopped" in line, line
        assert "Read-only file system" in line, line
        assert "Canceled" in (tmp_path / "cancel.out").read_text()
    finally:
        for pid in pids:  # before the fix they ran on: never leave them behind
            if _alive(pid):
                os.killpg(pid, signal.SIGKILL)
