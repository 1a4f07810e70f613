"""A large log opens at its end: the last lines are on screen from the tail alone, the rest is
read in behind it, and then the whole log is there (first line, search, errors)."""

from __future__ import annotations

from pathlib import Path

import pytest

from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.logs.follower import Timing
from widgets.log_view import LogView

from .conftest import make_app
from .waits import until

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

LINES = 6000  # ~300 KB: several times the 64 KB tail
BIG = f"""
print("first line")
print("ERROR: an early error, far before the tail")
for i in range({LINES}):
    print(f"step {{i}}: loss {{1 / (i + 1):.6f}} " + "." * 24)
print("last line")
"""


async def test_a_large_log_opens_at_its_end_and_fills_in_behind(
    backend: LocalBackend, tmp_path: Path
):
    code = tmp_path / "code"
    code.mkdir()
    (code / "big.py").write_text(BIG)
    spec = JobSpec(sku=None, nodes=1, gpus_per_node=1, code=str(code), script="big.py")
    job = backend.submit(local_plan(spec))
    backend.wait(job, timeout=60)
    log = Path(job.location, "user_logs/std_log_process_0.txt")
    assert log.stat().st_size > 4 * 64 * 1024

    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = JobScreen(backend, job, status_interval=0.2, timing=Timing(0.1, 0.3))
        await pilot.app.push_screen(screen)
        view = screen.query_one(LogView)
        await until(pilot, lambda: view.line_count > 0, "the first lines")
        # The follower started at the tail: the lines it delivered are the tail's alone.
        assert screen.follower is not None and 0 < screen.follower.state.lines < LINES / 2
        await until(pilot, lambda: screen.head_fill is None, "the rest is read in", ceiling=90)
        await until(pilot, lambda: view.visible_lines()[-1:] == ["last line"], "the end")
        assert view.line_count == LINES + 3
        assert view.store.line(0) == "first line" and view.store.line(1).startswith("ERROR")
        # The head's errors are looked for once its index is through (the same worker, next).
        await until(pilot, lambda: view.error_count == 1, "the head's error counted")
        await pilot.press("slash", *"first line", "enter")
        assert view.match_count == 1 and "first line" in view.visible_lines()
        # The chart has every step, the head's in front of the tail's.
        xs = list(screen.metrics.tracker.series["loss"].xs)
        assert xs == [float(i) for i in range(LINES)]
