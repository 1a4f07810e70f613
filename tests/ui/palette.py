"""Running a command the way a user does: ctrl+p, type, enter on the entry."""

from __future__ import annotations

import time

from textual.command import CommandList, CommandPalette


async def run_from_palette(pilot, query: str, entry: str, timeout: float = 30.0) -> None:
    """Open the command palette, type `query`, wait until `entry` is the first hit, pick it."""
    app = pilot.app
    await pilot.press("ctrl+p", *query)
    assert isinstance(app.screen, CommandPalette), app.screen
    hits = app.screen.query_one(CommandList)
    deadline = time.monotonic() + timeout
    # The palette searches in a worker: its hits arrive after the keys.
    while not (hits.option_count and entry in str(hits.get_option_at_index(0).prompt)):
        assert time.monotonic() < deadline, f"the palette did not offer {entry!r} for {query!r}"
        await pilot.pause(0.05)
    await pilot.press("enter")
    await pilot.pause()
