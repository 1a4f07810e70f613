"""The job screen says what a user needs: F1 lists its own keys, a search survives switching
ranks, an ended job shows no "data 0 s ago" (issue 12, items 13-14). Real local jobs."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

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
