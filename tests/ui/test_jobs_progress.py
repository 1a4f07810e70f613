"""The jobs list answers how far, how long, how much (issue 41 item 3) and marks a stall with
what it costs (issue 39 item 3), on real local jobs whose rank 0 prints real progress lines.

The lines are copied from tests/logs/data/progress/streams.txt: PaddleSeg's `[TRAIN]` lines
(its lines 589-593, from https://github.com/PaddlePaddle/PaddleSeg/pull/928: `iter: 60/500`,
a total and printed times, so a rate) and mmdetection's (its lines 19-25, from
https://github.com/open-mmlab/mmdetection/issues/2672: `Epoch [1][2550/7517]`, steps of an
epoch and no count of epochs, so no total).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest

from screens.jobs import JobsScreen, JobsTable
from screens.jobs_progress import ProgressReader
from screens.jobs_rows import JobRow, local_rows
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tests.ui.waits import on_screen, until
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

from .conftest import make_app

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

STREAMS = Path(__file__).parents[1] / "logs" / "data" / "progress" / "streams.txt"
SIZE = "Standard_NC24ads_A100_v4"


def stream_lines(first: int, last: int) -> list[str]:
    """streams.txt's lines `first`..`last` (1-based) that are log lines, not expectations."""
    text = STREAMS.read_text(encoding="utf-8").splitlines()[first - 1 : last]
    return [line for line in text if line and not line.startswith(("=>", "#"))]


PADDLESEG = stream_lines(589, 593)
MMDET = stream_lines(19, 25)


def snapshot_price(size: str) -> float:
    """The shipped snapshot's dedicated price per hour for `size` (read here, not by the code
    under test)."""
    data = json.loads(resources.files("presets").joinpath("prices.json").read_text("utf-8"))
    return next(
        row["dedicated"]
        for name, row in data["prices"][data["region"]].items()
        if name.lower() == size.lower()
    )


def printing_job(backend: LocalBackend, folder: Path, lines: list[str], sku: str | None) -> str:
    """A real local job (1 × 1) whose rank 0 prints `lines` then sleeps; its name once printed."""
    (folder / "train.py").write_text(
        "import os, sys, time\n"
        f"lines = {lines!r}\n"
        "if os.environ['RANK'] == '0':\n"
        "    for line in lines: print(line, flush=True)\n"
        "time.sleep(60)\n"
    )
    spec = JobSpec(sku=sku, nodes=1, gpus_per_node=1, code=str(folder), script="train.py")
    job = backend.submit(local_plan(spec))
    log = Path(job.location) / "user_logs" / "std_log_process_0.txt"
    deadline = time.monotonic() + 60
    while not (log.exists() and log.read_text().count("\n") >= len(lines)):
        assert time.monotonic() < deadline, "rank 0 did not print its lines"
        time.sleep(0.1)
    return job.name


def row_of(backend: LocalBackend, name: str, reader: ProgressReader) -> JobRow:
    return next(r for r in local_rows(backend, None, reader) if r.handle.name == name)


def test_a_job_with_a_total_shows_step_of_total_its_eta_and_cost(backend, tmp_path):
    name = printing_job(backend, tmp_path, PADDLESEG, SIZE)
    try:
        progress = row_of(backend, name, ProgressReader()).progress
        assert progress is not None
        assert progress.progress_text() == "60/500"
        # the lines' own times: iter 20 at 06:55:57, iter 60 at 06:56:11: 40 steps in 14 s
        assert progress.eta_text() == "2:34"  # 440 steps at 40/14 steps/s = 154 s
        hourly = snapshot_price(SIZE)
        assert progress.hourly == pytest.approx(hourly)
        assert progress.cost == pytest.approx(hourly * progress.took / 3600)
        assert progress.to_finish == pytest.approx(hourly * 154 / 3600, rel=0.01)
        assert progress.cost_text().startswith("$") and progress.stalled is None
    finally:
        backend.cancel(backend.handle(name))


def test_no_total_no_eta_and_no_size_no_cost(backend, tmp_path):
    name = printing_job(backend, tmp_path, MMDET, None)
    try:
        progress = row_of(backend, name, ProgressReader()).progress
        assert progress is not None
        assert progress.progress_text() == "step 2,550"  # the last step; no total printed
        assert progress.eta_text() == "" and progress.eta is None
        assert progress.cost_text() == "" and progress.to_finish_text() == ""
    finally:
        backend.cancel(backend.handle(name))


def test_a_log_still_longer_than_its_rhythm_allows_is_a_stall_with_its_cost(backend, tmp_path):
    name = printing_job(backend, tmp_path, PADDLESEG, SIZE)
    try:
        log = Path(backend.handle(name).location) / "user_logs" / "std_log_process_0.txt"
        reader = ProgressReader()
        assert row_of(backend, name, reader).progress.stalled is None  # written just now
        quiet = time.time() - 20 * 60  # nothing written for 20 minutes: past the untimed 10
        os.utime(log, (quiet, quiet))
        progress = row_of(backend, name, ProgressReader()).progress
        assert progress.stalled is not None and progress.stalled >= 20 * 60 - 5
        assert progress.progress_text() == "⏸ 60/500"
        assert progress.eta is None  # a stalled job's ETA is not known
        words = progress.stall_words()
        assert words.startswith("no step for 20:0") and "since" in words
        since = snapshot_price(SIZE) * progress.stalled / 3600
        assert f"${since:,.2f}" in words
    finally:
        backend.cancel(backend.handle(name))


def cells(screen: JobsScreen) -> dict[str, dict[str, str]]:
    """Each shown job's cells by column label, by job name."""
    table = screen.query_one(JobsTable)
    labels = [str(c.label) for c in table.columns.values()]
    out = {}
    for index in range(table.row_count):
        row = dict(zip(labels, (str(cell) for cell in table.get_row_at(index)), strict=True))
        out[row["NAME"]] = row
    return out


async def test_the_list_shows_them_and_drops_columns_from_the_right_as_it_narrows(
    backend, tmp_path
):
    name = printing_job(backend, tmp_path, PADDLESEG, SIZE)
    try:
        app = make_app(backends={"local": lambda: backend})
        async with app.run_test(size=(160, 30)) as pilot:
            await pilot.pause()
            app.action_jobs()
            await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
            screen = app.screen
            await until(pilot, lambda: name in cells(screen), "the job")
            row = cells(screen)[name]
            assert row["PROGRESS"] == "60/500" and row["ETA"] == "2:34"
            assert row["COST"].startswith("$") and row["TO FINISH"].startswith("$")
            assert row["NODES × GPUS"] == "1 × 1"
            table = screen.query_one(JobsTable)
            for width in (120, 80):
                await pilot.resize_terminal(width, 30)
                await pilot.pause(0.3)
                labels = [str(c.label) for c in table.columns.values()]
                assert labels[:3] == ["WHERE", "NAME", "STATUS"] and labels[-1] == "CAUSE / WHAT"
                assert table.virtual_size.width <= table.scrollable_content_region.width
                print(width, labels)
            assert len(labels) < 11  # at 80 columns some have gone, from the right
            assert "SCRIPT" not in labels
    finally:
        backend.cancel(backend.handle(name))


def test_the_table_without_a_ui_keeps_every_column(backend, job_root, tmp_path):
    name = printing_job(backend, tmp_path, PADDLESEG, SIZE)
    try:
        out = subprocess.run(
            [sys.executable, "-m", "tui", "jobs", "--no-ui"],
            capture_output=True, text=True, timeout=60, env=os.environ.copy(),
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        header, *rows = out.stdout.splitlines()
        assert header.split()[:9] == [
            "NAME", "STATUS", "CREATED", "TOOK", "PROGRESS", "ETA", "COST", "TO", "FINISH",
        ]  # fmt: skip
        row = next(r for r in rows if r.startswith(name)).split()
        assert row[1] == "Running" and row[6:8] == ["60/500", "2:34"]
        assert row[8].startswith("$") and row[9].startswith("$")
    finally:
        backend.cancel(backend.handle(name))


def test_a_log_that_prints_only_epochs_shows_its_last_epoch():
    # the shipped DDP example prints `epoch 2 loss 0.3051` and no step or total: the list said
    # "–" for it; it shows the last epoch, and no ETA (no total is printed)
    from screens.jobs_progress import JobProgress

    shown = JobProgress(epoch=2.0, ended=True)
    assert (shown.progress_text(), shown.eta_text()) == ("epoch 2", "")
