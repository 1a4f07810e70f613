"""The user's own code first (issue 26, items 9 and 10): a misspelt script is said under the
Script field as it is typed, with the likely name; "this machine" keeps the folder dtrain-tui
was started in when it holds Python files (its training script found), and the examples say
what each one runs as here."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList, Static

from screens.code import CodeStep
from screens.examples import ExamplesScreen
from screens.framework import FrameworkStep
from tui.planning.presets import samples_dir

from .conftest import make_app
from .test_answers_kept import go_to
from .test_wizard import type_into
from .waits import notices, on_screen, until


async def test_a_misspelt_script_is_said_on_the_code_step_as_it_is_typed(home: Path):
    app = make_app()  # the folder holds train.py (conftest)
    async with app.run_test(size=(120, 36)) as pilot:
        await go_to(pilot, CodeStep)
        await type_into(pilot, "#script", "trian.py")
        shown = str(app.screen.query_one("#script-check", Static).render())
        assert "⚠ trian.py is not in .; did you mean train.py?" in shown
        await type_into(pilot, "#script", "train.py")
        assert "is not in" not in str(app.screen.query_one("#script-check", Static).render())


async def test_this_machine_keeps_the_users_folder_when_it_holds_python_files(home: Path):
    (home / "train.py").unlink()
    (home / "main.py").write_text("print('training')\n")
    (home / "utils.py").write_text("")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        assert (app.spec.code, app.spec.script) == (".", "main.py")
        said = "Script: main.py, the training script found in ."
        await until(pilot, lambda: said in notices(app), "the script notice")


async def test_an_empty_folder_gets_the_example_and_says_so(home: Path):
    (home / "train.py").unlink()
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")
        await until(pilot, lambda: app.review_target == "local", "this machine")
        assert app.spec.code == str(samples_dir())
        said = "PyTorch DDP's example train_ddp.py runs instead"
        await until(pilot, lambda: said in notices(app), "the example notice")


async def test_the_examples_say_what_each_runs_as_here():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await until(pilot, lambda: on_screen(app, ExamplesScreen), "the examples")
        legend = str(app.screen.query_one(".hint", Static).render())
        assert "the others" not in legend  # every shipped example runs here
        options = app.screen.query_one(OptionList)
        for index in range(options.option_count):
            prompt = str(options.get_option_at_index(index).prompt)
            if prompt.startswith("▶ "):
                assert "here: 2 simulated nodes × 2 processes" in prompt, prompt
        await pilot.press("enter")
        await until(pilot, lambda: on_screen(app, FrameworkStep), "back on step 1")
        await until(pilot, lambda: "runs as 2 × 2 here" in notices(app), "the 2 × 2 notice")
