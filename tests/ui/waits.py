"""Event-based waits for UI tests: a condition checked after each pause, a generous ceiling."""

from __future__ import annotations

import asyncio


async def until(pilot, condition, what: str, ceiling: float = 60.0) -> None:
    """Wait for `condition()`; fail naming `what` if it has not happened after `ceiling` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ceiling
    while not condition():
        assert loop.time() < deadline, f"never happened: {what}"
        await pilot.pause(0.02)


def job_screen_ready(app) -> bool:
    """The job screen is on top and has composed its log view (pushed is not yet usable)."""
    from screens.job import JobScreen
    from widgets.log_view import LogView

    return isinstance(app.screen, JobScreen) and bool(app.screen.query(LogView))
