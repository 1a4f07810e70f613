"""The job screen says what a user needs: F1 lists its own keys, a search survives switching
ranks, an ended job shows no "data 0 s ago" (issue 12, items 13-14). Real local jobs."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Markdown

from screens.help import HelpScreen
from tests.backends import conftest as backends
from tests.backends.conftest import SCRIPTS
from tui.backends.local import LocalBackend
from widgets.log_view import LogView

from .conftest import make_app
from .test_job_screen import finished_reading, open_job, spec, status_text, submit, until

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend


def help_keys(app) -> str:
    assert isinstance(app.screen, HelpScreen)
    return app.screen.query_one(Markdown).source


async def test_search_survives_switching_rank_and_an_ended_job_shows_no_data_age(
    backend: LocalBackend,
):
    job = submit(backend, spec(SCRIPTS, "ranks.py", "--seconds", "0.5"))
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job)
        view = screen.query_one(LogView)
        await until(pilot, lambda: finished_reading(screen), "the job ends")
        assert " data " not in status_text(screen)  # ended: no more data will come

        await pilot.press("slash", *"done", "enter")
        assert view.search_query == "done"
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: finished_reading(screen) and view.line_count > 0, "rank 1")
        assert screen.log_name == "user_logs/std_log_process_1.txt"
        assert view.search_query == "done"
        await until(pilot, lambda: (view.match_count or 0) >= 1, "the match in rank 1")
        assert "/done " in status_text(screen)
        assert not screen.query_one("#prompt").has_class("-shown")
        assert view.has_focus


async def test_f1_on_the_job_screen_lists_the_job_screens_keys(backend: LocalBackend):
    job = submit(backend, spec(SCRIPTS, "ranks.py", "--seconds", "0.5"))
    async with make_app().run_test(size=(120, 30)) as pilot:
        await open_job(pilot, backend, job)
        await pilot.press("f1")
        await pilot.pause()
        keys = help_keys(pilot.app)
        for key, does in [
            ("`n`", "Next match"),
            ("`N`", "Previous match"),
            ("`E`", "Previous error"),
            ("`end`", ""),
            ("`/`", "Search"),
            ("`c`", "Cancel"),
        ]:
            assert f"| {key} | {does}" in keys, key
        assert "Next step" not in keys and "ctrl+n" not in keys  # the wizard's keys are not here


@pytest.mark.parametrize("close", ["enter", "escape"])
async def test_the_search_prompt_leaves_nothing_behind_when_it_closes(
    backend: LocalBackend, close: str
):
    job = submit(backend, spec(SCRIPTS, "ranks.py", "--seconds", "0.5"))
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = await open_job(pilot, backend, job)
        view = screen.query_one(LogView)
        await until(pilot, lambda: finished_reading(screen), "the job ends")
        cursor_before = pilot.app.cursor_position

        await pilot.press("slash")
        await pilot.pause()
        prompt, query = screen.query_one("#prompt"), screen.query_one("#query", Input)
        assert prompt.display and query.has_focus
        await pilot.press(*"done", close)
        await pilot.pause()

        assert not prompt.display and query.region.area == 0  # nothing of it is drawn
        assert view.has_focus and not query.has_focus
        # The terminal's cursor is not left parked where the prompt's caret was.
        assert pilot.app.cursor_position == cursor_before
        assert view.region.bottom == screen.query_one("Footer").region.y  # the log has its row back
