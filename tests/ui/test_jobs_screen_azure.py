"""The jobs list with Azure ML (issue 26, item 5): this machine's jobs and the workspace's
together, a failed Azure job's cause from the doctor once its row is chosen — against the
workspace emulator (the real azure-ai-ml client, jobs run for real, logs in Azurite)."""

from __future__ import annotations

import asyncio

import pytest

from screens.jobs import JobsScreen, JobsTable
from tests.azure import conftest as azure
from tests.azure.test_jobs_end_to_end import lines_job
from tests.backends import conftest as backends
from tests.backends.conftest import SCRIPTS, local_plan
from tests.ui.waits import on_screen, until
from tui.backends.base import JobState
from tui.core.spec import JobSpec

from .conftest import make_app
from .test_jobs_screen import cells

pytestmark = pytest.mark.slow

# Fixtures: the workspace emulator (and a backend signed in to it), a local job root.
emulator_session = azure.emulator_session
emulator = azure.emulator
azure_backend = azure.backend
job_root = backends.job_root
local_backend = backends.backend


async def test_local_and_azure_jobs_are_listed_together_with_the_azure_failures_cause(
    azure_backend, emulator, job_root, local_backend
):
    emulator.run_jobs = True
    here = local_backend.submit(
        local_plan(
            JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(SCRIPTS), script="ranks.py")
        )
    )
    broken = lines_job(2, "--lines", "50", "--every", "0.02", "--fail-rank", "1")
    failed = azure_backend.submit(broken)
    for _ in range(600):
        if azure_backend.status(failed).is_terminal:
            break
        await asyncio.sleep(0.1)
    assert azure_backend.status(failed).state is JobState.FAILED
    app = make_app(backends={"local": lambda: local_backend, "azureml": lambda: azure_backend})
    async with app.run_test(size=(160, 30)) as pilot:  # the cause whole; narrower it ends in …
        await pilot.pause()
        app.action_jobs()
        await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
        screen = app.screen
        await until(pilot, lambda: {here.name, failed.name} <= set(cells(screen)), "both")
        rows = cells(screen)
        assert rows[here.name][:3] == ["here", here.name, "Running"]
        assert rows[failed.name][:3] == ["azure", failed.name, "Failed"]
        table = screen.query_one(JobsTable)
        table.move_cursor(row=list(rows).index(failed.name))  # choosing it asks the doctor
        cause = "rank 1: the training script raised an exception"
        await until(pilot, lambda: cells(screen)[failed.name][-1] == cause, "the doctor's cause")
        local_backend.cancel(here)
