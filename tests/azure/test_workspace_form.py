"""The Submit step's workspace form (issue 26, item 6), against the workspace emulator: the
subscriptions and workspaces the signed-in identity can see (ARM's list calls, in the recorded
shapes of tests/azure/data), every missing or wrong field said at once, the choice checked and
remembered for the next run."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, Select, Static

from screens.submit import SubmitScreen
from screens.workspace_form import WorkspaceForm
from tests.azure.conftest import StaticCredential
from tests.azure.emulator import Fault, WorkspaceEmulator
from tests.azure.test_jobs_end_to_end import lines_job
from tests.ui import waits
from tui.backends.azureml import AzureMLBackend
from tui.backends.azureml.arm import problems
from tui.backends.azureml.workspace import NO_WORKSPACE, remembered_path

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)  # no config.json here
    monkeypatch.setattr(Input, "cursor_blink", False)


@pytest.fixture
def seen(emulator: WorkspaceEmulator) -> WorkspaceEmulator:
    """Two subscriptions; the emulator's one holds ws-test and ws-other in two groups."""
    emulator.other_subscriptions = {"11111111-2222-3333-4444-555555555555": "Research"}
    emulator.listed_workspaces = {emulator.subscription: [("rg-other", "ws-other")]}
    emulator.page_size = 1  # every list comes in pages, as ARM's may
    return emulator


def test_the_lists_hold_what_the_identity_sees_and_problems_are_said_at_once(seen):
    backend = AzureMLBackend(credential=StaticCredential())
    found, choices = backend.workspace_choices()
    assert found is None  # nothing configured here
    assert NO_WORKSPACE.endswith(
        "or choose it in the app's Submit step (Azure ML), which remembers it"
    )
    assert choices.subscriptions == {
        seen.subscription: "Emulated subscription",
        "11111111-2222-3333-4444-555555555555": "Research",
    }
    assert choices.groups(seen.subscription) == ["rg-other", "rg-test"]
    assert choices.names(seen.subscription, "rg-test") == ["ws-test"]
    assert problems(choices, seen.subscription, "rg-test", "ws-test") == {}
    wrong = problems(choices, seen.subscription, "rg-tset", "ws-tset")
    assert wrong == {
        "resource group": "rg-tset holds no Azure ML workspace in Emulated subscription "
        "(did you mean rg-test?)",
        "workspace": "no workspace ws-tset in Emulated subscription (did you mean ws-test?)",
    }
    moved = problems(choices, "not-a-subscription", "rg-test", "ws-other")
    assert set(moved) == {"subscription", "workspace"}
    assert moved["workspace"] == "ws-other is in resource group rg-other, not rg-test"
    assert set(problems(choices, "", "", "")) == {"subscription", "resource group", "workspace"}


def test_a_subscription_that_refuses_its_list_is_said_not_fatal(seen):
    seen.unlistable = {"11111111-2222-3333-4444-555555555555"}
    _, choices = AzureMLBackend(credential=StaticCredential()).workspace_choices()
    assert choices.names(seen.subscription, "rg-test") == ["ws-test"]
    said = problems(choices, "11111111-2222-3333-4444-555555555555", "rg", "ws")["subscription"]
    assert said.startswith("its workspaces could not be listed (AuthorizationFailed")


def make_app(backend: AzureMLBackend):
    from tui.app import DtrainApp

    return DtrainApp(lines_job(1).spec, review=True, backends={"azureml": lambda: backend})


def problem_of(form: WorkspaceForm, wid: str) -> str:
    return str(form.query_one(f"#ws-{wid}-problem", Static).render())


async def open_form(pilot) -> tuple[SubmitScreen, WorkspaceForm]:
    app = pilot.app
    app.action_submit()
    await waits.until(pilot, lambda: waits.on_screen(app, SubmitScreen), "the submit dialog")
    await pilot.click("#to-azureml")
    form = app.screen.query_one(WorkspaceForm)
    await waits.until(pilot, lambda: form.display and form.choices is not None, "the form")
    await pilot.pause()
    return app.screen, form


async def pick(pilot, wid: str, label: str) -> None:
    """Open the list, and Enter on `label` (moved to with the arrow keys)."""
    select = pilot.app.screen.query_one(f"#ws-{wid}", Select)
    select.focus()
    await pilot.press("enter")
    await pilot.pause()
    labels = [str(prompt) for prompt, _ in select._options]
    values = [value for _, value in select._options]
    steps = labels.index(label) - values.index(select.value)  # the list opens at the value
    for _ in range(abs(steps)):
        await pilot.press("down" if steps > 0 else "up")
    await pilot.press("enter")
    await pilot.pause()


def check_text(dialog) -> str:
    return str(dialog.query_one("#azure-check", Static).render())


async def test_pick_subscription_group_workspace_then_it_is_checked_and_remembered(seen):
    app = make_app(AzureMLBackend(credential=StaticCredential()))
    async with app.run_test(size=(120, 50)) as pilot:
        dialog, form = await open_form(pilot)
        for wid in ("subscription", "resource-group", "workspace"):  # all three, at once
            assert problem_of(form, wid).startswith("✗ choose a"), wid
        await pilot.click("#ok")  # Submit says what is missing, and stays
        assert app.screen is dialog
        await pick(pilot, "subscription", "Emulated subscription")
        assert problem_of(form, "subscription") == ""
        await pick(pilot, "resource-group", "rg-test")
        assert form.value("workspace") == "ws-test"  # the group's only workspace
        await waits.until(pilot, lambda: "gpu-cluster" in check_text(dialog), "the check")
        assert "Workspace ws-test (resource group rg-test" in check_text(dialog)
        assert [problem_of(form, w) for w in ("subscription", "resource-group", "workspace")] == [
            "",
            "",
            "",
        ]
    kept = json.loads(remembered_path().read_text())
    assert kept == {
        "subscription_id": seen.subscription,
        "resource_group": "rg-test",
        "workspace_name": "ws-test",
    }

    app = make_app(AzureMLBackend(credential=StaticCredential()))  # the next run starts there
    async with app.run_test(size=(120, 50)) as pilot:
        dialog, form = await open_form(pilot)
        assert [form.value(f) for f in ("subscription", "resource group", "workspace")] == [
            seen.subscription,
            "rg-test",
            "ws-test",
        ]
        await waits.until(pilot, lambda: "gpu-cluster" in check_text(dialog), "the check")
        assert "remembered in" in check_text(dialog)


async def test_wrong_fields_from_the_environment_are_all_said_in_one_round(seen, monkeypatch):
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", seen.subscription)
    monkeypatch.setenv("AZURE_RESOURCE_GROUP", "rg-tset")
    monkeypatch.setenv("AZUREML_WORKSPACE_NAME", "ws-tset")
    app = make_app(AzureMLBackend(credential=StaticCredential()))
    async with app.run_test(size=(120, 50)) as pilot:
        dialog, form = await open_form(pilot)
        assert problem_of(form, "subscription") == ""
        assert problem_of(form, "resource-group") == (
            "✗ rg-tset holds no Azure ML workspace in Emulated subscription (did you mean rg-test?)"
        )
        assert (
            problem_of(form, "workspace")
            == "✗ no workspace ws-tset in Emulated subscription (did you mean ws-test?)"
        )
        assert form.value("resource group") == "rg-tset"  # shown as found, marked
        assert check_text(dialog) == ""  # nothing is checked or submitted against a wrong one
        assert not [r for r in seen.requests if "/workspaces/ws-tset" in r.path]
        await pick(pilot, "resource-group", "rg-test")
        await waits.until(pilot, lambda: "gpu-cluster" in check_text(dialog), "the check")


def test_the_cli_says_every_wrong_field_in_one_round(seen, tmp_path):
    """`submit --target azure` with a wrong resource group and workspace: ARM's 404 names the
    group only; dtrain-tui asks the lists and says both, with where each was set."""
    from tests.azure.test_cli_azure import LINES_JOB, cli_env, dtrain

    env = cli_env(tmp_path, seen) | {"AZURE_RESOURCE_GROUP": "rg-tset"}
    args = ["submit", "--target", "azure", *LINES_JOB, "--workspace", "ws-tset"]
    out = dtrain(args, env, tmp_path, timeout=120)
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines()[-1] == (
        "dtrain-tui: error: Azure ML workspace ws-tset: resource group: rg-tset holds no Azure ML "
        "workspace in Emulated subscription (did you mean rg-test?) (check AZURE_RESOURCE_GROUP, "
        "which named it (or give --resource-group)); workspace: no workspace ws-tset in Emulated "
        "subscription (did you mean ws-test?) (check --workspace, which named it)"
    )


async def test_without_the_lists_the_workspace_found_is_checked_as_before(emulator, backend):
    """An identity that may not list subscriptions still submits to the workspace it names."""
    emulator.faults.append(Fault("GET", "/subscriptions", status=403))  # the first list only
    app = make_app(backend)
    async with app.run_test(size=(120, 50)) as pilot:
        app.action_submit()
        await waits.until(pilot, lambda: waits.on_screen(app, SubmitScreen), "the dialog")
        await pilot.click("#to-azureml")
        dialog = app.screen
        await waits.until(pilot, lambda: "gpu-cluster" in check_text(dialog), "the check")
        shown = check_text(dialog)
        assert shown.startswith("warning: could not list your subscriptions (")
        assert "checking the workspace found instead" in shown
        assert "Workspace ws-test (resource group rg-test" in shown
        assert not dialog.query_one(WorkspaceForm).display
