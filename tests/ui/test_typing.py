"""Typing at full speed: key presses are never reordered or dropped.

A terminal delivers a fast burst of keys at once. Textual forwards each key to the widget that
has focus *when the app reads it*, while Tab (a binding) only moves focus once it has bubbled
back up to the app, so without care the keys after Tab land in the field before it. These
tests post the whole burst before the app has handled any of it, as a terminal does.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from screens.code import CodeStep
from screens.review import ReviewStep

from .conftest import make_app
from .waits import on_screen, until

NAMES = {"/": "slash", "_": "underscore", ".": "full_stop", " ": "space", "-": "minus"}


def typed(text: str) -> list[events.Key]:
    return [events.Key(NAMES.get(c, c), c) for c in text]


def pressed(key: str) -> events.Key:
    return events.Key(key, {"tab": "\t"}.get(key))


def burst(app, *keys: events.Key | list[events.Key]) -> None:
    """Post every key at once, before the app has handled the first (as a terminal does)."""
    for key in keys:
        for event in key if isinstance(key, list) else [key]:
            app.post_message(event)


async def at_code_step(pilot, app) -> None:
    await pilot.pause()
    app.goto_step(3)
    await until(pilot, lambda: on_screen(app, CodeStep), "Code & env")
    await pilot.pause()


async def test_fields_typed_in_one_burst_each_get_their_own_text(home):
    (home / "presets" / "scripts").mkdir(parents=True)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await at_code_step(pilot, app)
        code = app.screen.query_one("#code", Input)
        code.focus()
        code.value = ""
        await pilot.pause()
        burst(
            app,
            typed("presets/scripts"),
            pressed("tab"),
            typed("train_ddp.py"),
            pressed("tab"),
            typed("--epochs 2"),
        )
        await until(pilot, lambda: app.spec.args == ("--epochs", "2"), "the arguments")
        assert app.screen.query_one("#code", Input).value == "presets/scripts"
        assert app.screen.query_one("#script", Input).value == "train_ddp.py"
        assert (app.spec.code, app.spec.script) == ("presets/scripts", "train_ddp.py")


async def test_next_in_the_same_burst_waits_for_the_edit_before_it(home):
    (home / "src").mkdir()
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await at_code_step(pilot, app)
        app.screen.query_one("#code", Input).focus()
        await pilot.pause()
        # "." becomes "src", and Next comes in the same burst
        burst(app, pressed("backspace"), typed("src"), pressed("ctrl+n"))
        await until(pilot, lambda: on_screen(app, ReviewStep), "Review")
        assert app.spec.code == "src"
        await pilot.pause()
