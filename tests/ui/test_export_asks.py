"""Export from the app never replaces a file without asking (issue 26, item 1): after
`dtrain-tui edit job.yml`, `x` and Enter (the dialog's `job.yml`, the very file) show what would
change and offer a new name first; the file is replaced only when asked to."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from screens.export import ReplaceScreen
from screens.review import ReviewStep
from tui.planning.job_import import load_job_file

from .conftest import make_app
from .waits import notices, on_screen, until

JOB = """\
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
command: python train.py
code: .
environment: azureml:AzureML-acpt-pytorch-2.2-cuda12.1@latest
compute: azureml:gpu-cluster
resources:
  instance_count: 2
distribution:
  type: pytorch
  process_count_per_instance: 8
"""


async def export_with_enter(pilot) -> None:
    await pilot.press("x")
    await until(pilot, lambda: pilot.app.screen.query("#path"), "the export dialog")
    await pilot.press("enter")


async def test_export_over_the_edited_job_asks_and_offers_a_new_name(home: Path):
    job = home / "job.yml"
    job.write_text(JOB)
    app = make_app(spec=load_job_file(job), review=True, export_path=job)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: on_screen(app, ReviewStep), "Review")
        await export_with_enter(pilot)
        await until(pilot, lambda: on_screen(app, ReplaceScreen), "the question")
        changes = str(app.screen.query_one("#changes", Static).render())
        assert "+" in changes and "-" in changes
        assert job.read_text() == JOB  # nothing written yet
        await pilot.press("enter")  # the default: a new name
        await until(pilot, lambda: (home / "job-1.yml").exists(), "job-1.yml")
        assert job.read_text() == JOB

        await export_with_enter(pilot)
        await until(pilot, lambda: on_screen(app, ReplaceScreen), "the question again")
        await pilot.press("escape")
        assert job.read_text() == JOB and not (home / "job-2.yml").exists()

        await export_with_enter(pilot)
        await until(pilot, lambda: on_screen(app, ReplaceScreen), "the question once more")
        await pilot.press("r")
        await until(pilot, lambda: job.read_text() != JOB, "job.yml replaced")
        assert job.read_text() == (home / "job-1.yml").read_text()

        await export_with_enter(pilot)  # the same job again: nothing to ask, nothing written
        await until(pilot, lambda: "already holds this job" in notices(app), "the note")
        assert not isinstance(app.screen, ReplaceScreen)
