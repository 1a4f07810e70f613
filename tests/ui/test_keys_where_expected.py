"""Keys that work where people expect them (issue 26, items 7 and 8): less/k9s movement on the
job screen's log and in every list, `q` leaves, `?` is help, Esc goes back one layer; the
footer always shows Back, Help and Quit at 80 and 120 columns, and a "Why: F1" hint says where
the Why panel went when the terminal is too narrow for it."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual.widgets import Markdown, OptionList
from textual.widgets._footer import FooterKey

from screens.examples import ExamplesScreen
from screens.framework import FrameworkStep
from screens.help import HelpScreen
from screens.job import JobScreen
from screens.jobs import JobsScreen
from screens.review import ReviewStep
from tui.backends.base import JobHandle, JobState, JobStatus
from tui.logs.follower import Timing
from widgets.key_footer import KeyFooter
from widgets.log_view import LogView

from .conftest import make_app
from .test_job_clock_and_strip import ScriptedBackend
from .waits import on_screen, until

ESSENTIAL = ("Back", "Help", "Quit")


def finished(tmp_path: Path, lines: int = 600) -> tuple[ScriptedBackend, JobHandle]:
    """A job that ended, with a long rank 0 log: no processes, the same every run."""
    log = tmp_path / "rank0.txt"
    log.write_text("".join(f"step {i} loss {1 / (i + 1):.4f}\n" for i in range(lines)))
    end = datetime(2026, 11, 1, 12, 0, 30, tzinfo=timezone.utc)
    status = JobStatus(
        JobState.COMPLETED,
        created_at=end - timedelta(seconds=40),
        started_at=end - timedelta(seconds=30),
        ended_at=end,
    )
    return ScriptedBackend(log, status), JobHandle("azureml", "pytorch-ddp-2x2-demo")


async def open_finished(pilot, tmp_path: Path) -> JobScreen:
    backend, job = finished(tmp_path)
    screen = JobScreen(backend, job, status_interval=0.2, timing=Timing(min_interval=0.1))
    await pilot.app.push_screen(screen)
    view = screen.query_one(LogView)
    await until(pilot, lambda: view.line_count == 600, "the whole log")
    await until(pilot, lambda: view.scroll_y > 0, "at its end")
    return screen


def footer_keys(screen) -> list[str]:
    """The descriptions of the footer's keys a person can see (not cut at the right, not under
    the palette key docked there)."""
    footer = screen.query_one(KeyFooter)
    keys = list(footer.query(FooterKey))
    palette = [k for k in keys if k.has_class("-command-palette")]
    right = palette[0].region.x if palette else footer.region.right
    return [
        k.description
        for k in keys
        if not k.has_class("-command-palette") and k.region.width and k.region.right <= right
    ]


async def test_less_keys_move_the_job_screens_log_and_q_leaves(tmp_path: Path):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await open_finished(pilot, tmp_path)
        view = screen.query_one(LogView)
        bottom = view.scroll_y
        await pilot.press("g")
        assert view.scroll_y == 0 and not view.follow
        await pilot.press("j", "j")
        assert view.scroll_y == 2
        await pilot.press("k")
        assert view.scroll_y == 1
        page = view.scrollable_content_region.height - 1
        await pilot.press("ctrl+d")
        assert view.scroll_y == 1 + round(page / 2)
        await pilot.press("ctrl+u")
        assert view.scroll_y == 1
        await pilot.press("pagedown")
        assert view.scroll_y == 1 + page
        await pilot.press("pageup")
        assert view.scroll_y == 1
        screen.set_focus(None)  # the keys act on the log wherever the focus is
        await pilot.pause()
        assert app.focused is None
        await pilot.press("pagedown")
        assert view.scroll_y == 1 + page
        await pilot.press("G")
        assert view.scroll_y == bottom and view.follow

        await pilot.press("question_mark")
        await until(pilot, lambda: on_screen(app, HelpScreen), "help")
        keys = app.screen.query_one(Markdown).source
        assert "| `j` | Line down |" in keys and "| `G` | End (and follow) |" in keys
        await pilot.press("question_mark")
        assert app.screen is screen
        await pilot.press("q")
        assert isinstance(app.screen, FrameworkStep)


async def test_q_on_the_last_screen_quits(tmp_path: Path):
    from tui.app import DtrainApp

    backend, job = finished(tmp_path)
    app = DtrainApp(backends={}, job=(backend, job, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: on_screen(app, JobScreen), "the job screen")
        await pilot.press("q")
        await until(pilot, lambda: app.return_code == 0, "the app quits (nothing it started runs)")


async def test_lists_answer_j_k_g_G():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await until(pilot, lambda: on_screen(app, ExamplesScreen), "the examples")
        options = app.screen.query_one(OptionList)
        start = options.highlighted
        await pilot.press("j", "j")
        assert options.highlighted == start + 2
        await pilot.press("k")
        assert options.highlighted == start + 1
        await pilot.press("G")
        assert options.highlighted == options.option_count - 1
        await pilot.press("g")
        assert options.highlighted == 0
        await pilot.press("escape")
        assert isinstance(app.screen, FrameworkStep)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_back_help_and_quit_always_show_in_the_footer(size, tmp_path: Path):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(4):  # every step
            await pilot.pause()
            shown = footer_keys(app.screen)
            assert all(k in shown for k in (*ESSENTIAL, "Next")), (type(app.screen), shown)
            await pilot.press("ctrl+n")
        await until(pilot, lambda: on_screen(app, ReviewStep), "Review")
        await pilot.pause()
        assert all(k in footer_keys(app.screen) for k in ESSENTIAL)
        app.action_jobs()
        await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
        await pilot.pause()
        assert all(k in footer_keys(app.screen) for k in ESSENTIAL), footer_keys(app.screen)
        await pilot.press("escape")
        await open_finished(pilot, tmp_path)
        await pilot.pause()
        assert all(k in footer_keys(app.screen) for k in ESSENTIAL), footer_keys(app.screen)


@pytest.mark.parametrize("width", [80, 120])
async def test_why_f1_shows_where_the_why_panel_went(width):
    app = make_app()
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.pause()
        hint = app.screen.query_one("#nav-spacer")
        why = app.screen.query_one("#why")
        assert hint.visible is (width < 96) and why.display is (width >= 96)
        await pilot.press("f1")
        await until(pilot, lambda: on_screen(app, HelpScreen), "help")
        assert "## Why this step" in app.screen.query_one(Markdown).source
        assert "data parallelism" in app.screen.query_one(Markdown).source
