"""A new engineer's first screen: start from an example, or say "this machine", and get a job
that runs here; every dialog does what its highlighted button says on Enter."""

from __future__ import annotations

from textual.widgets import OptionList, RadioButton

from screens.examples import ExamplesScreen
from screens.framework import FrameworkStep
from screens.submit import SubmitScreen
from tui.planning.presets import samples_dir

from .conftest import make_app
from .waits import on_screen, until


async def test_the_first_example_runs_here_and_stays_on_the_first_step():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await until(pilot, lambda: on_screen(app, ExamplesScreen), "the examples")
        first = app.screen.query_one(OptionList).get_option_at_index(0)
        assert str(first.prompt).startswith("▶ ")  # runs on this machine
        await pilot.press("enter")
        await until(pilot, lambda: on_screen(app, FrameworkStep), "back on step 1")
        spec = app.spec
        assert (spec.nodes, spec.gpus_per_node, spec.sku) == (2, 2, None)
        assert (spec.code, spec.script) == (str(samples_dir()), "train_ddp.py")
        assert app.review_target == "local"
        assert app.screen.query_one("#target-local", RadioButton).value


async def test_this_machine_keeps_a_script_that_is_here_and_drops_the_vm_size(home):
    app = make_app()  # the folder has train.py (see conftest)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.screen.query_one("#target-local", RadioButton).value = True
        await until(pilot, lambda: app.review_target == "local", "the target")
        spec = app.spec
        assert (spec.nodes, spec.gpus_per_node, spec.sku) == (2, 2, None)
        assert (spec.code, spec.script) == (".", "train.py")
        (home / "train.py").unlink()  # a framework switched to later gets its sample
        await pilot.press("down", "enter")  # Lightning
        await until(pilot, lambda: app.spec.framework == "lightning", "Lightning")
        assert (app.spec.code, app.spec.script) == (str(samples_dir()), "train_lightning.py")


async def test_enter_in_the_submit_dialog_submits_to_the_target_chosen_first():
    answers = []
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.push_screen(SubmitScreen("here", "not installed", False), answers.append)
        await until(pilot, lambda: on_screen(app, SubmitScreen), "the submit dialog")
        await pilot.pause()
        assert app.focused.id == "ok"
        label = str(app.screen.query_one("#to-azureml", RadioButton).label)
        assert "not installed" in label  # greyed out, and says why in place
        await pilot.press("enter")
        await until(pilot, lambda: answers, "an answer")
    assert answers == ["local"]


async def test_submit_will_not_start_a_local_run_the_pre_flight_stops():
    from textual.widgets import Static

    from tui.planning.preflight import Finding

    answers = []
    torch = Finding("torch is not installed", ".venv/bin/python -m pip install -e '.[torch]'")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.push_screen(SubmitScreen("here", "", False, local_findings=[torch]), answers.append)
        await until(pilot, lambda: on_screen(app, SubmitScreen), "the submit dialog")
        await pilot.pause()
        note = str(app.screen.query_one("#where-note", Static).render())
        assert "torch is not installed" in note and "pip install -e '.[torch]'" in note
        await pilot.press("enter")
        await pilot.pause()
        assert answers == [] and isinstance(app.screen, SubmitScreen)
