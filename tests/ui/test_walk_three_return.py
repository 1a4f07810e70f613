"""The third walk (issue 40): back on a step, typing goes to its first field and replaces what is
there (item 19); a missing script is said once (item 19); notices keep clear of Next, "Why: F1"
and the Why panel (item 20)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from screens.code import CodeStep
from screens.resources import ResourcesStep

from .conftest import make_app
from .test_answers_kept import go_to
from .waits import until


async def test_back_on_a_step_typing_replaces_its_first_field():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await go_to(pilot, ResourcesStep)
        resources = app.screen
        await pilot.click("#next")  # the mouse: the Next button keeps focus here
        await until(pilot, lambda: isinstance(app.screen, CodeStep), "the code step")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is resources, "back on Resources")
        await pilot.pause()
        first = resources.query_one("#nodes", Input)
        assert app.focused is first
        before = app.spec.nodes
        await pilot.press("3")
        await pilot.pause()
        assert first.value == "3" and app.spec.nodes == 3, (before, first.value)


async def test_a_missing_script_is_said_once(home):
    (home / "train.py").unlink()
    (home / "train_model.py").write_text("print('hi')\n")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await go_to(pilot, CodeStep)
        await pilot.pause()
        said = " ".join(str(w.render()) for w in app.screen.query("#form Static") if w.display)
        assert said.count("train.py") == 1, said
        assert "did you mean train_model.py?" in said


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_a_notice_leaves_next_and_the_why_in_view(size):
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        await go_to(pilot, ResourcesStep)
        app.notify("A notice long enough to take a toast's whole width on this screen")
        toasts = lambda: list(app.screen.query("Toast"))  # noqa: E731
        await until(pilot, lambda: any(t.region.area for t in toasts()), "the notice")
        covered = [
            sel
            for sel in ("#next", "#nav-spacer", "#why")
            if app.screen.query_one(sel).display
            for t in toasts()
            if t.region.overlaps(app.screen.query_one(sel).region)
        ]
        assert covered == [], covered
