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


def on_screen(app, screen_type) -> bool:
    """`screen_type` is on top and mounted: composed, its children mounted, its on_mount run
    (a screen is `app.screen` from the moment it is pushed, before any of that)."""
    return isinstance(app.screen, screen_type) and app.screen.is_mounted


def notices(app) -> str:
    """The app's notifications so far, one a line (a notice lands a moment after `notify`:
    wait for it with `until`)."""
    return "\n".join(str(n.message) for n in app._notifications)
