"""The third walk, item 22's last part (issue 40): a script whose tqdm bar (stderr) and prints
(stdout) share the rank's log showed each epoch's bar twice in the job screen, `0%` with the
print glued after it and `100%`. A real local job running the real tqdm: the log shows each
print on its own line and one bar per epoch, its final state; the raw log keeps every byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.backends import conftest as backends
from tests.ui.test_job_screen import finished_reading, open_job, spec, submit
from tests.ui.waits import until
from tui.backends.local import LocalBackend
from widgets.log_view import LogView

from .conftest import make_app

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

SCRIPT = """
import time
from tqdm import tqdm
for epoch in range(2):
    for i in tqdm(range(5)):
        time.sleep(0.01)
        if i == 2:
            print(f"epoch {epoch} step {i} loss 0.5", flush=True)
print("done", flush=True)
"""


async def test_a_bar_and_the_prints_it_shares_a_log_with_read_as_a_terminal_means_them(
    backend: LocalBackend, tmp_path: Path
):
    (tmp_path / "bars.py").write_text(SCRIPT)
    job = submit(backend, spec(tmp_path, "bars.py"))
    backend.wait(job, timeout=60)
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job)
        await until(pilot, lambda: finished_reading(screen), "the whole log")
        view = screen.query_one(LogView)
        lines = [view.store.line(n) for n in range(view.line_count)]
        assert "epoch 0 step 2 loss 0.5" in lines and "epoch 1 step 2 loss 0.5" in lines
        bars = [line for line in lines if "it/s]" in line]
        assert len(bars) == 2 and all(line.startswith("100%|") for line in bars), lines
        assert not any(line.lstrip().startswith("0%") for line in lines), lines
    raw = backend.log_sources(job)[screen.log_name].path.read_bytes()
    assert b"  0%|" in raw  # the bytes as written: only the view reads them as a terminal would
