"""The jobs list shows its rows before any log is read, asks Azure ML no status a refresh, and
leaves the table alone when a refresh changes nothing (issue 41: a refresh of 200 rows must not
hold the event loop; tests/benchmarks/bench_jobs_list.py prints the figures).

The workspace here is a stand-in with the backend's protocol (`recent_jobs`, `compute_size`,
`status`, `log_sources`) that counts what it is asked, and whose rank 0 log can be held until
the test lets it go; the log is PaddleSeg's real `[TRAIN]` lines (tests/logs/data/progress/
streams.txt lines 589-593, from https://github.com/PaddlePaddle/PaddleSeg/pull/928).
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from screens.jobs import JobsScreen, JobsTable
from screens.jobs_progress import ProgressReader
from screens.jobs_rows import azure_rows, read_progress
from tests.ui.waits import on_screen, until
from tui.backends.azureml.listing import JobSummary, RecentJobs
from tui.backends.base import JobHandle, JobState, JobStatus

from .conftest import make_app
from .test_jobs_progress import PADDLESEG, SIZE, cells, snapshot_price

pytestmark = pytest.mark.slow

LOG = "user_logs/std_log_process_0.txt"
NOW = datetime.now(timezone.utc)


class HeldLog:
    """A remote log that answers only once `gate` is set; `entered` says it was asked."""

    def __init__(self, data: bytes, gate: threading.Event, reads: Counter, name: str) -> None:
        self.data, self.gate, self.reads, self.name = data, gate, reads, name
        self.entered = threading.Event()

    async def size(self) -> int:
        self.entered.set()
        self.gate.wait(60)
        self.reads[self.name] += 1
        return len(self.data)

    async def read(self, start: int, length: int) -> bytes:
        return self.data[start : start + length]

    async def aclose(self) -> None:
        pass


class Workspace:
    """Azure ML as the jobs list asks it, counting each question."""

    name = "azureml"

    def __init__(self, *states: JobState) -> None:
        self.jobs = [
            JobSummary(
                JobHandle("azureml", f"job-{i}"),
                state,
                state.value,
                f"run {i}",
                "exp",
                NOW - timedelta(hours=3),
                "gpu-cluster",
                2,
            )
            for i, state in enumerate(states)
        ]
        self.gate = threading.Event()
        self.listings = 0
        self.sizes: list[str] = []
        self.statuses: Counter = Counter()
        self.reads: Counter = Counter()
        self.logs: dict[str, HeldLog] = {}
        self.data = ("\n".join(PADDLESEG) + "\n").encode()

    def recent_jobs(self) -> RecentJobs:
        self.listings += 1
        return RecentJobs(self.jobs)

    def compute_size(self, compute: str) -> str:
        self.sizes.append(compute)
        return SIZE

    def status(self, handle: JobHandle) -> JobStatus:
        self.statuses[handle.name] += 1
        job = next(j for j in self.jobs if j.handle == handle)
        ended = NOW - timedelta(minutes=30) if job.state.is_terminal else None
        return JobStatus(job.state, job.created_at, NOW - timedelta(hours=2), ended)

    def log_sources(self, handle: JobHandle) -> dict[str, HeldLog]:
        log = HeldLog(self.data, self.gate, self.reads, handle.name)
        self.logs[handle.name] = log
        return {LOG: log}


async def open_list(app, pilot) -> JobsScreen:
    await pilot.pause()
    app.push_screen(JobsScreen(interval=0.1, azure_interval=0.1))
    await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
    return app.screen


async def test_the_rows_are_shown_before_a_slow_log_is_read():
    workspace = Workspace(JobState.RUNNING)
    app = make_app(backends={"azureml": lambda: workspace})
    try:
        async with app.run_test(size=(160, 30)) as pilot:
            screen = await open_list(app, pilot)
            await until(pilot, lambda: "job-0" in cells(screen), "the job's row")
            await until(pilot, lambda: "job-0" in workspace.logs, "its log asked for")
            await until(pilot, workspace.logs["job-0"].entered.is_set, "its log being read")
            row = cells(screen)["job-0"]
            assert row["STATUS"] == "Running" and row["CAUSE / WHAT"] == "run 0 · exp"
            assert row["PROGRESS"] == "–" and row["COST"] == "–"  # not read yet: not guessed
            workspace.gate.set()
            await until(pilot, lambda: cells(screen)["job-0"]["PROGRESS"] == "60/500", "60/500")
            assert cells(screen)["job-0"]["COST"].startswith("$")
    finally:
        workspace.gate.set()


def test_azure_jobs_are_asked_their_status_once_a_state_and_an_ended_log_is_read_once():
    workspace = Workspace(JobState.RUNNING, JobState.COMPLETED)
    workspace.gate.set()
    reader = ProgressReader()
    for _ in range(3):
        rows, _ = azure_rows(workspace)
        read = read_progress(rows, reader)
    assert workspace.statuses == {"job-0": 1, "job-1": 1}  # the listing says the state
    assert workspace.reads == {"job-0": 3, "job-1": 1}  # a running log may grow; an ended not
    assert workspace.sizes == ["gpu-cluster"] * 3  # once a listing, not once a job
    price = 2 * snapshot_price(SIZE)
    assert [row.progress.hourly for row in read] == [pytest.approx(price)] * 2
    assert read[1].progress.cost == pytest.approx(price * 1.5)  # 2 h ago to 30 min ago
    assert read[0].progress.progress_text() == read[1].progress.progress_text() == "60/500"
    workspace.jobs[0] = replace(workspace.jobs[0], state=JobState.COMPLETED)
    for _ in range(2):
        read_progress(azure_rows(workspace)[0], reader)
    assert workspace.statuses == {"job-0": 2, "job-1": 1}  # asked again once: it ended
    assert workspace.reads == {"job-0": 4, "job-1": 1}


async def test_a_refresh_that_changes_nothing_leaves_the_table_alone(monkeypatch):
    workspace = Workspace(JobState.COMPLETED, JobState.CANCELED)
    workspace.gate.set()
    app = make_app(backends={"azureml": lambda: workspace})
    async with app.run_test(size=(160, 30)) as pilot:
        screen = await open_list(app, pilot)
        shown = lambda: {n: r["PROGRESS"] for n, r in cells(screen).items()}  # noqa: E731
        await until(pilot, lambda: shown() == {"job-0": "60/500", "job-1": "60/500"}, "both")
        table = screen.query_one(JobsTable)
        calls: Counter = Counter()
        for method in ("update_cell", "add_row", "clear"):
            original = getattr(table, method)

            def counted(*args, _original=original, _method=method, **kwargs):
                calls[_method] += 1
                return _original(*args, **kwargs)

            monkeypatch.setattr(table, method, counted)
        listed = workspace.listings
        await until(pilot, lambda: workspace.listings >= listed + 4, "four more refreshes")
        await pilot.pause()
        assert calls == {}  # nothing changed: nothing drawn again
        workspace.jobs[1] = replace(workspace.jobs[1], display_name="renamed")
        await until(
            pilot, lambda: cells(screen)["job-1"]["CAUSE / WHAT"] == "renamed · exp", "renamed"
        )
        assert calls == {"update_cell": 1}  # that cell alone
