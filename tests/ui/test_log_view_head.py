"""A log on this machine opened at its end: the part before the tail is indexed where it lies
(`LogView.open_head`), line 1 is there at once, and a search reaches into it."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from widgets.log_view import LogView

from .waits import until

LINES = 150_000  # ~12 MB: searched in a thread, like a big log


class ViewApp(App[None]):
    def __init__(self, spool: Path) -> None:
        super().__init__()
        self.spool = spool

    def compose(self) -> ComposeResult:
        yield LogView(spool_dir=self.spool)


def write_log(path: Path) -> int:
    """The log; the offset where its last 100 lines (the 'tail') begin."""
    lines = [f"line {i} " + "." * 70 for i in range(LINES)]
    lines[LINES // 2] = "NEEDLE in the middle"
    lines[10] = "Traceback (most recent call last):"
    lines[11] = '  File "train.py", line 3, in <module>'
    lines[12] = "ValueError: bad"
    head = "".join(f"{s}\n" for s in lines[:-100]).encode()
    path.write_bytes(head + "".join(f"{s}\n" for s in lines[-100:]).encode())
    return len(head)


async def test_home_search_and_count_over_an_indexed_head(tmp_path: Path):
    log = tmp_path / "rank0.log"
    end = write_log(log)
    tail = log.read_bytes()[end:].decode().splitlines()
    async with ViewApp(tmp_path / "spool").run_test(size=(100, 30)) as pilot:
        view = pilot.app.query_one(LogView)
        view.append(tail)
        await pilot.pause()  # the tail on screen, as a log opened at its end shows first
        done: list[int] = []
        view.open_head(log, end, done.append)
        view.search("NEEDLE")  # right after opening, while the head is being indexed
        await until(pilot, lambda: "NEEDLE in the middle" in view.visible_lines(), "the hit")
        view.action_top()
        await until(pilot, lambda: view.visible_lines()[:1] == ["line 0 " + "." * 70], "line 1")
        await until(pilot, lambda: done and done[-1] >= end, "the whole head indexed")
        assert view.line_count == LINES
        assert view.store.line(LINES - 1) == tail[-1] and view.store.line(5).startswith("line 5 ")
        await until(pilot, lambda: view.error_count == 1, "the head's traceback")
        assert (view.store.error_starts[0], view.store.error_ends[0]) == (10, 13)
        view.search("needle")
        await until(pilot, lambda: view.match_count == 1, "the search's count")
        view.search("line 149999")
        await until(pilot, lambda: view.match_count == 1, "a hit in the tail")
