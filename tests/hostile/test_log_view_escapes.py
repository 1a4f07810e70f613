"""Rank logs in the TUI: escape sequences a training script prints never reach the terminal.

Colours (SGR) become styles; everything else (cursor moves, erase, OSC titles, BEL) is dropped
or shown as U+FFFD. The log view already did this; this test keeps it so.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from widgets.log_view import LogView

HOSTILE = [
    "\x1b]0;pwned\x07title set",
    "before\x1b[1A\x1b[2Khidden",
    "bell\x07 and backspace\x08 and CR\rhere",
    "\x1b[31mred\x1b[0m stays a colour",
    "C1 csi \x9b2J cleared?",
]


class ViewApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LogView(window=1_000)


async def test_hostile_log_lines_render_without_raw_control_characters(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path))
    app = ViewApp()
    async with app.run_test(size=(80, 10)) as pilot:
        view = app.query_one(LogView)
        view.append(HOSTILE)
        await pilot.pause()
        shown = ["".join(seg.text for seg in view.render_line(y)) for y in range(len(HOSTILE))]
        for line in shown:
            assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in line), repr(line)
        assert "red stays a colour" in shown[3]
        assert "hidden" in shown[1]  # shown, not used to erase the line above
