"""The wizard with the Azure ML backend: the Submit step's workspace and compute check, submit to
the job screen, and attaching to a recent job — against the workspace emulator."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, RadioButton, Static

from screens.attach import AttachScreen
from screens.job import JobScreen
from screens.submit import SubmitScreen
from tests.azure.test_jobs_end_to_end import lines_job
from tests.azure.test_recorded import recorded
from tests.ui import waits
from tests.ui.palette import run_from_palette
from tests.ui.waits import on_screen
from tui.backends.azureml import AzureMLBackend
from tui.backends.azureml.workspace import NOT_SIGNED_IN
from tui.backends.base import JobState
from widgets.log_view import LogView

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def quiet(tmp_path, monkeypatch):
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Input, "cursor_blink", False)


def make_app(backend: AzureMLBackend, **backends):
    from tui.app import DtrainApp

    app = DtrainApp(
        lines_job(1, "--lines", "100000", "--every", "0.02").spec,
        review=True,
        backends={"azureml": lambda: backend, **backends},
    )
    return app


async def until(pilot, check, what: str, ceiling: float = 90.0) -> None:
    # A ceiling, not a speed check: a submit here takes a few seconds, many more on a loaded box.
    await waits.until(pilot, check, what, ceiling)


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def checked(shown: str) -> bool:
    """The check has ended (no `…` under its lines): the dialog stops growing, so a click lands
    where the button is."""
    return "gpu-cluster" in shown and "…" not in shown


async def test_submit_step_shows_the_workspace_and_the_compute_check_then_submits(
    backend, emulator
) -> None:
    emulator.run_jobs = True
    app = make_app(backend)
    async with app.run_test(size=(120, 40)) as pilot:
        app.action_submit()
        await until(
            pilot,
            lambda: isinstance(app.screen, SubmitScreen) and app.screen.query("#to-azureml"),
            "the submit dialog",
        )
        dialog = app.screen
        await pilot.click("#to-azureml")
        await until(pilot, lambda: checked(text_of(dialog, "#azure-check")), "the check")
        shown = text_of(dialog, "#azure-check")
        assert "Workspace ws-test (resource group rg-test" in shown
        assert "Signed in to Azure." in shown
        assert "cluster gpu-cluster: Standard_ND96asr_v4, 0–4 nodes" in shown
        assert "warning: cluster gpu-cluster runs Standard_ND96asr_v4, not" not in shown
        assert dialog.query_one("#to-azureml", RadioButton).value
        await pilot.click("#ok")
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        screen = app.screen
        assert screen.handle.backend == "azureml"
        assert list(emulator.runs) == [screen.handle.name]
        view = screen.query_one(LogView)
        await until(pilot, lambda: view.line_count >= 3, "rank 0's lines")
        assert view.store.line(0) == "rank 0 started with WORLD_SIZE=1"
        backend.cancel(screen.handle)
        await until(pilot, lambda: screen.status and screen.status.is_terminal, "the end")
        assert screen.status.state is JobState.CANCELED


async def test_submit_step_says_to_sign_in_before_it_can_list_workspaces(
    emulator, monkeypatch
) -> None:
    for name in ("AZURE_SUBSCRIPTION_ID", "AZURE_RESOURCE_GROUP", "AZUREML_WORKSPACE_NAME"):
        monkeypatch.delenv(name, raising=False)
    app = make_app(AzureMLBackend())
    async with app.run_test(size=(120, 40)) as pilot:
        app.action_submit()
        await until(
            pilot,
            lambda: isinstance(app.screen, SubmitScreen) and app.screen.query("#to-azureml"),
            "the submit dialog",
        )
        await pilot.click("#to-azureml")
        # The workspace form lists what the signed-in identity sees: first, sign in.
        await until(pilot, lambda: "az login" in text_of(app.screen, "#azure-check"), "error")
        # (then, where `az` is not installed, the dialog says so: issue 40, item 5)
        assert text_of(app.screen, "#azure-check").startswith(NOT_SIGNED_IN)
        assert not emulator.requests


async def listed_jobs(pilot, count: int) -> list[str]:
    """The job names the attach dialog lists, once it lists `count`."""
    app = pilot.app
    await until(
        pilot,
        lambda: isinstance(app.screen, AttachScreen) and app.screen.query(OptionList),
        "the attach dialog",
    )
    options = app.screen.query_one(OptionList)
    await until(pilot, lambda: options.option_count == count, f"{count} jobs")
    return [options.get_option_at_index(i).id for i in range(count)]


async def test_attach_lists_recent_jobs_and_opens_the_picked_one(backend, emulator) -> None:
    first = backend.submit(lines_job(1))
    second = backend.submit(lines_job(1, display_name="second"))
    app = make_app(backend)
    async with app.run_test(size=(120, 40)) as pilot:
        app.action_attach()
        assert await listed_jobs(pilot, 2) == [second.name, first.name]
        await pilot.press("down", "enter")
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        assert app.screen.handle == first


async def test_attach_is_in_the_command_palette(backend, emulator) -> None:
    job = backend.submit(lines_job(1))
    app = make_app(backend)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await run_from_palette(pilot, "attach", "Attach to a job")
        assert await listed_jobs(pilot, 1) == [job.name]


async def test_a_job_the_service_failed_has_the_doctor_name_azure_mls_cause(
    backend, emulator
) -> None:
    """The run's own error (recorded: `ServiceError` / `InternalServerError`) reaches the job
    screen's doctor line, as it reaches `doctor --target azure`: the platform's cause, not a
    failure without a known cause."""
    job = backend.submit(lines_job(1))
    emulator.fail_with(job.name, recorded("run_error_service.json"))
    app = make_app(backend)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.show_job(backend, job)
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        screen = app.screen
        await until(pilot, lambda: "Fix:" in text_of(screen, "#job-doctor"), "the doctor line")
        shown = text_of(screen, "#job-doctor")
        assert "Azure ML system error" in shown, shown
        assert "InternalServerError" in shown


async def test_the_jobs_list_reads_the_services_error_too(backend, emulator) -> None:
    """The jobs list's doctor (its row and `d`) reads the run's own error as the job screen does."""
    from screens.doctor import DoctorScreen
    from screens.jobs import JobsScreen

    job = backend.submit(lines_job(1))
    emulator.fail_with(job.name, recorded("run_error_service.json"))
    app = make_app(backend)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.action_jobs()
        await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
        await until(pilot, lambda: job.name in str(app.screen.rows), "the failed job's row")
        await pilot.press("d")
        await until(pilot, lambda: on_screen(app, DoctorScreen), "the doctor")
        doctor = app.screen
        await until(pilot, lambda: "Fix:" in text_of(doctor, "#doctor-text"), "its answer")
        assert "(azureml_system_error)" in text_of(doctor, "#doctor-text")
