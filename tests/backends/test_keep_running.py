"""Quitting the app with a job running: "keep it running" lets the job outlive the app.

The app that submitted a job owns it (it is canceled when the app exits, so nothing outlives
the app by accident); `LocalBackend.keep` is the app's way of letting it go on purpose.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tui.backends.base import JobState
from tui.backends.local import LocalBackend

from .conftest import SCRIPTS

APP = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tui.backends.local import LocalBackend
    from tui.planning.plan import Target, plan
    from tui.core.spec import JobSpec

    spec = JobSpec(nodes=1, gpus_per_node=2, sku=None, code=sys.argv[2], script="ranks.py",
                   args=("--seconds", "2"))
    backend = LocalBackend(Path(sys.argv[1]), gpus=[])
    job = backend.submit(plan(spec, Target.for_spec("local", spec)))
    if sys.argv[3] == "keep":
        backend.keep(job)
    print(job.location, flush=True)
    """
)


@pytest.mark.parametrize(("answer", "state"), [("keep", "Completed"), ("quit", "Canceled")])
def test_a_kept_job_outlives_the_app_that_submitted_it(job_root: Path, answer: str, state: str):
    app = subprocess.run(
        [sys.executable, "-c", APP, str(job_root), str(SCRIPTS), answer],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
        check=True,
    )
    job_dir = Path(app.stdout.strip())
    backend = LocalBackend(job_root, detach=True)
    status = backend.wait(backend.handle(job_dir.name), timeout=90)
    assert status.state is JobState(state), status.summary()
    if answer == "keep":
        assert "rank 1 done" in (job_dir / "user_logs" / "std_log_process_1.txt").read_text()
