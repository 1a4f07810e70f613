"""The third walk (issue 40), the Submit step: a DeepSpeed job built in the wizard whose code
folder already holds a different ds_config.json is named by the pre-flight and settled in the
dialog (use mine, replace it, another name) instead of failing with "add --force" (item 4);
Azure ML while not signed in says what to do at every Submit, and whether `az` is there (item 5);
a run here that cannot start puts the focus on what can work, and Tab follows the layout (8)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import ClassVar

import pytest
from rich.console import Console
from textual.widgets import Button, Static

from screens.review import ReviewStep
from screens.submit import SubmitScreen
from tui.planning.preflight import Finding

from .conftest import make_app
from .test_answers_kept import choose_framework, go_to
from .waits import notices, on_screen, until

THEIRS = '{"train_batch_size": 64, "zero_optimization": {"stage": 3}}\n'


class Recorder:
    """A backend that keeps the plan it was asked to run and runs nothing."""

    name = "local"
    plans: ClassVar[list] = []

    def submit(self, plan):
        self.plans.append(plan)
        raise RuntimeError("recorded, not run")


async def deepspeed_submit_dialog(pilot) -> SubmitScreen:
    """Framework DeepSpeed on this machine, the code folder `.`, then Submit at Review."""
    app = pilot.app
    await pilot.pause()
    await choose_framework(pilot, "deepspeed")
    await pilot.click("#target-local")
    await until(pilot, lambda: app.review_target == "local", "this machine")
    assert (app.spec.code or ".", app.spec.script) == (".", "train.py")
    await go_to(pilot, ReviewStep)
    await pilot.press("ctrl+n")
    await until(pilot, lambda: on_screen(app, SubmitScreen), "the submit dialog")
    return app.screen


@pytest.mark.parametrize("answer", ["mine", "replace", "rename"])
async def test_a_config_file_in_the_way_is_named_and_settled_in_the_dialog(home: Path, answer):
    (home / "ds_config.json").write_text(THEIRS)
    Recorder.plans = []
    app = make_app(backends={"local": Recorder})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await deepspeed_submit_dialog(pilot)
        note = " ".join(str(screen.query_one("#where-note", Static).render()).split())
        assert "ds_config.json in . differs from the DeepSpeed config built for this job" in note
        labels = {str(b.label) for b in screen.query("#settle Button").results(Button)}
        assert labels == {
            "Run with mine (ds_config.json)",
            "Replace it and run",
            "Write as ds_config-2x2.json and run",
        }
        await pilot.click(f"#settle-{answer}")
        await until(pilot, lambda: Recorder.plans, "the job submitted")
        await until(pilot, lambda: "recorded, not run" in notices(app), "the backend asked")
    plan = Recorder.plans[0]
    built = json.loads(plan.config_file.render()) if plan.config_file else None
    if answer == "mine":
        assert plan.spec.deepspeed_config == "ds_config.json" and plan.config_file is None
        assert (home / "ds_config.json").read_text() == THEIRS
        assert "ds_config.json" in plan.command
    elif answer == "replace":
        assert json.loads((home / "ds_config.json").read_text()) == built
    else:
        assert plan.spec.deepspeed_config == "ds_config-2x2.json"
        assert (home / "ds_config.json").read_text() == THEIRS
        assert json.loads((home / "ds_config-2x2.json").read_text())["train_batch_size"] > 0
        assert "ds_config-2x2.json" in plan.command


async def test_the_review_s_pre_flight_names_the_config_in_the_way(home: Path):
    (home / "ds_config.json").write_text(THEIRS)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await choose_framework(pilot, "deepspeed")
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        await go_to(pilot, ReviewStep)
        body = app.screen.query_one("#tab-command-body", Static)
        console = Console(width=200, file=io.StringIO(), record=True)
        console.print(body.content)
        shown = " ".join(console.export_text().split())
        assert "✗ ds_config.json in . differs from the DeepSpeed config built for this job" in shown
        assert "nothing stops it" not in shown


class NotSignedIn:
    """The Azure ML backend as it is before `az login`: listing the workspaces fails."""

    def workspace_choices(self):
        raise RuntimeError(
            "not signed in to Azure: run `az login` (or `azd auth login`), or set "
            "AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET for a service principal"
        )


async def open_azure_dialog(pilot) -> SubmitScreen:
    screen = SubmitScreen(
        "here", "Submits the plan.", True, lambda: iter(()), default="azureml", azure=NotSignedIn
    )
    pilot.app.push_screen(screen)
    await until(pilot, lambda: on_screen(pilot.app, SubmitScreen), "the submit dialog")
    check = screen.query_one("#azure-check", Static)
    await until(pilot, lambda: "not signed in" in str(check.render()), "the sign-in problem")
    return screen


@pytest.mark.parametrize("az", [True, False], ids=["az-installed", "no-az"])
async def test_submit_to_azure_while_not_signed_in_says_what_to_do(home: Path, monkeypatch, az):
    bin_dir = home / "bin"
    bin_dir.mkdir()
    if az:
        (bin_dir / "az").write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / "az").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_azure_dialog(pilot)
        shown = " ".join(str(screen.query_one("#azure-check", Static).render()).split())
        assert ("(`az`) is not installed here" in shown) is not az
        for _ in range(2):  # every Submit says it again, never "still listing"
            screen.query_one("#ok", Button).press()
            await until(
                pilot, lambda: "Cannot submit to Azure ML yet: not signed in" in notices(app), "it"
            )
            said = notices(app)
            assert "Still listing" not in said
            assert ("install it (https://aka.ms/installazurecli)" in said) is not az
            check = screen.query_one("#azure-check", Static)
            await until(pilot, lambda: "not signed in" in str(check.render()), "asked again")  # noqa: B023
            app.clear_notifications()


def torch_missing() -> Finding:
    fix = ".venv/bin/python -m pip install -e '.[torch]'"
    return Finding("torch is not installed", fix, install=("python", "-m", "pip"))


async def test_a_blocked_run_here_focuses_what_can_work_and_tab_follows_the_layout():
    answers: list = []
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(
            SubmitScreen("here", "", False, local_findings=[torch_missing()]), answers.append
        )
        await until(pilot, lambda: on_screen(app, SubmitScreen), "the submit dialog")
        # not Submit, which cannot work
        await until(pilot, lambda: app.focused.id == "install", "the focus on Install")
        order = []
        for _ in range(4):
            await pilot.press("tab")
            order.append(app.focused.id)
        assert order == ["ok", "cancel", "where", "install"]  # top to bottom, as laid out
        await pilot.press("shift+tab", "enter", "tab", "enter")  # radio, Submit: not Cancel
        await pilot.pause()
        assert on_screen(app, SubmitScreen) and answers == []
