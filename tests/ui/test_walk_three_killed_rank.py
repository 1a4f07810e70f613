"""The third walk (issue 40, item 14): a rank killed by SIGKILL leaves an empty log; the job
screen opens the launcher's log, which says how the rank ended, instead of the empty log "at
its first error"."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.core.spec import JobSpec

from .conftest import make_app
from .test_rank_strip import open_job
from .waits import until

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

KILLED = textwrap.dedent(
    """
    import os, signal, time
    if os.environ["RANK"] == "1":
        os.kill(os.getpid(), signal.SIGKILL)  # the OOM killer's way: not a word in its log
    for step in range(600):
        print(f"step {step}", flush=True)
        time.sleep(0.1)
    """
)


async def test_a_rank_killed_by_sigkill_shows_the_launchers_log(backend, tmp_path: Path):
    code = tmp_path / "code"
    code.mkdir()
    (code / "killed.py").write_text(KILLED)
    spec = JobSpec(
        framework="pytorch",
        launch="per_process",
        nodes=2,
        gpus_per_node=1,
        sku=None,
        code=str(code),
        script="killed.py",
    )
    handle = backend.submit(local_plan(spec))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_job(pilot, backend, handle)
        outcome = screen.query_one("#job-outcome", Static)
        await until(pilot, lambda: "Failed" in str(outcome.render()), "the job failed", 120)
        said = " ".join(str(outcome.render()).split())
        assert "at its first error" not in said
        assert "rank 1's log is empty (it printed nothing before it ended)" in said
        assert "showing system_logs/launcher.txt, where the launcher says how it ended" in said
        assert screen.log_name == "system_logs/launcher.txt"
        launcher = Path(handle.location) / "system_logs/launcher.txt"
        assert "job Failed: rank 1 was killed by signal 9 (SIGKILL)" in launcher.read_text()
