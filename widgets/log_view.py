"""`LogView`: a live log that stays fast at any size — follow, wrap, search, filter, errors.

A Line-API `ScrollView`, not Textual's `Log`/`RichLog` (they slow down per line and, with
`max_lines`, stop repainting; see the Textual reference §2.4): only visible rows are drawn, one
`append()` takes a whole poll's batch, and the lines live in a `LogStore` (the newest in memory,
all of them in a spool file on disk), so search, filter and save reach lines long scrolled out.

Built in layers, one room each: `LogRows` (log_rows.py) lays the lines out as rows and draws
them, `LogSearch` (log_search.py) finds in them, and `LogView` here is the widget: feeding it,
following the newest line, wrap, and its keys.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.binding import Binding
from textual.worker import get_current_worker

from tui.logs.gpus import MARK as GPU_MARK
from widgets.log_errors import index_and_find_errors
from widgets.log_head import LogHead
from widgets.log_search import LogSearch
from widgets.log_store import BLOCK, LogStore

HEAD_BATCH = 0.2
"""Seconds between the index's hand-overs to the view (the first comes at once): each lays the
screen out again (~10-15 ms of CPU beside the helpers counting; at 0.05 s that was 0.1 s of a
1 GB log's 0.4 s index), and the status line's percentage moves five times a second."""

_STYLES = ("error", "error-start", "match", "current", "partial", "gutter")


class LogView(LogSearch, can_focus=True):
    """A followed log: `append()` a batch per poll, `set_partial()` the live progress line.

    `follow` and `wrap` are its reactives (declared in `LogRows`, which draws by them)."""

    COMPONENT_CLASSES: ClassVar = {f"log-view--{name}" for name in _STYLES}
    DEFAULT_CSS = """
    LogView { height: 1fr; background: $surface; scrollbar-gutter: stable; }
    LogView.-wrap { overflow-x: hidden; }
    LogView > .log-view--error { color: $error; }
    LogView > .log-view--error-start { color: $error; text-style: bold; }
    LogView > .log-view--match { background: $warning 35%; }
    LogView > .log-view--current { background: $warning; color: $background; }
    LogView > .log-view--partial { color: $text-muted; text-style: italic; }
    LogView > .log-view--gutter { color: $text-muted; }
    """
    BINDINGS: ClassVar = [
        Binding("end", "follow", "Follow", show=False),
        Binding("home", "top", "Top", show=False),
    ]

    # ---- what it holds ------------------------------------------------------------------

    @property
    def store(self) -> LogStore:
        """The lines (the spool path, counts, error ranges)."""
        return self._store

    @property
    def line_count(self) -> int:
        return self._store.count

    @property
    def partial(self) -> str:
        return self._partial

    # ---- feeding it ---------------------------------------------------------------------

    def append(self, lines: Sequence[str]) -> None:
        """Add one batch of complete lines (call once per poll, not per line). dtrain-tui's own
        GPU sample lines are left out: the screen shows them beside the ranks instead."""
        if any(GPU_MARK in line for line in lines):
            lines = [line for line in lines if GPU_MARK not in line]
        if not lines or self._store.closed:
            return
        self._store.append(lines)
        self._content_changed()

    def set_partial(self, text: str) -> None:
        """Show the unfinished last line (a progress bar's latest state) as a dim last row."""
        if text == self._partial or self._store.closed:
            return
        self._partial = text
        self._content_changed()

    def clear(self) -> None:
        """Forget everything (a new log): a fresh spool, follow on, no search or filter."""
        self.workers.cancel_group(self, "log-head")
        self._store.close()
        self._store = LogStore(self._window, self._spool_dir)
        self._partial = ""
        self._match = self._error = None
        self._generation += 1
        self.follow = True
        self._content_changed()
        self._auto_scroll = True
        try:
            self.scroll_to(x=0, y=0, animate=False, immediate=True)
        finally:
            self._auto_scroll = False

    def take_head(self, head: LogStore) -> int:
        """Put `head` (the lines before the first one shown, filled in behind a log opened at
        its end) in front: it becomes the store, with the lines shown so far appended to it.
        The same lines stay on screen; a search or filter runs again over the whole log.
        Returns how many lines came in front."""
        old, shift = self._store, head.count
        search, filter_ = self.search_query, self.filter_query
        old.flush()
        for start in range(0, old.count, BLOCK):
            head.append([old.line(n) for n in range(start, min(old.count, start + BLOCK))])
        old.close()
        self._store = head
        self._generation += 1
        self._match = self._error = None
        top = None if self.follow else self.scroll_y + shift
        self._content_changed()
        if top is not None:
            self._scroll_y_to(top)
        if filter_:
            self.set_filter(filter_)
        if search:
            self.search(search)
        return shift

    def open_head(
        self, path: Path, end: int, progress: Callable[[int], None] | None = None
    ) -> None:
        """Put bytes 0..`end` of the file at `path` (`end` a line boundary: where the lines
        appended so far begin) in front, read where they lie. Line 1 is there at once; the rest
        as the index reaches it (`progress(bytes)` each time), the lines shown staying put.
        A search or filter runs again over the whole log."""
        store = self._store
        head = LogHead(path, end)
        head.indexing = True  # from now: a search leaves the numbering to the index
        store.attach_head(head)
        self._head_progress = progress
        self._index_head(store)
        if self.filter_query:
            self.set_filter(self.filter_query)
        if self.search_query:
            self.search(self.search_query)

    @work(thread=True, group="log-head", exit_on_error=False)
    def _index_head(self, store: LogStore) -> None:
        worker, head = get_current_worker(), store.head
        assert head is not None
        starts, numbers = array("Q"), array("Q")
        handed = 0.0

        def stop() -> bool:
            return worker.is_cancelled or store.closed

        def deliver(new_starts: array, new_numbers: array) -> None:
            nonlocal starts, numbers, handed
            starts.extend(new_starts)
            numbers.extend(new_numbers)
            now = time.monotonic()
            if now - handed >= HEAD_BATCH or starts[-1] >= head.end:
                # Posted, not waited for: the index reads on while the view takes it.
                self.call_later(self._head_grew, store, starts, numbers)
                starts, numbers, handed = array("Q"), array("Q"), now

        def errors(found: array, ends: array) -> None:
            self.call_later(self._head_errors, store, found, ends)  # after the index's, in order

        try:
            index_and_find_errors(head, deliver, errors, stop)
        except RuntimeError:
            return  # the app is closing

    def _head_grew(self, store: LogStore, starts: array, numbers: array) -> None:
        head = store.head
        if store is not self._store or head is None:
            return
        old = store.head_lines
        top = None if self.follow else self.scroll_y
        store.head_grew(head.take(starts, numbers))
        self._generation += 1  # line numbers past the head moved on
        self._update_virtual_size()  # first: a jump to a match is clamped to the old size
        self._release_held()
        if self.follow:
            self._scroll_to_end()
        elif top and top >= old:  # (at row 0 before the head came: Home, line 1 wanted)
            self._scroll_y_to(top + store.head_lines - old)  # the same lines stay on screen
        self.refresh()
        if self._head_progress is not None:
            self._head_progress(head.indexed)

    def _head_errors(self, store: LogStore, starts: array, ends: array) -> None:
        if store is self._store:
            store.head_errors(starts, ends)
            self._error = None
            self._generation += 1
            self.refresh()

    @property
    def head_progress(self) -> tuple[int, int] | None:
        """(bytes indexed, bytes) of the head while its index is being built."""
        head = self._store.head
        return None if head is None or head.done else (head.indexed, head.end)

    def saver(self) -> Callable[[Path], int]:
        """A function that writes the whole log so far to a path (safe to run in a thread)."""
        store = self._store
        store.flush()
        size, partial = store.size, self._partial
        return lambda path: store.save(path, size, partial)

    def on_unmount(self) -> None:
        self._store.close()

    def _content_changed(self) -> None:
        self._update_virtual_size()
        if self.follow:
            self._scroll_to_end()
        self.refresh()

    # ---- follow, wrap, keys -------------------------------------------------------------

    def watch_follow(self, follow: bool) -> None:
        if follow:
            self._scroll_to_end()

    def watch_wrap(self, wrap: bool) -> None:
        self.set_class(wrap, "-wrap")
        self._refit()
        self.call_after_refresh(self._refit)  # once the horizontal scrollbar has gone

    def watch_show_horizontal_scrollbar(self, show: bool) -> None:
        # The scrollbar takes (or gives back) a row: keep the last line in view.
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        self._update_virtual_size()
        if self.follow:
            self._scroll_to_end()
        self.refresh()

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if not self._auto_scroll:
            # The user scrolled: up pauses following, reaching the end resumes it.
            self.follow = round(new) >= self.max_scroll_y

    def on_resize(self) -> None:
        self._refit()

    def action_scroll_up(self) -> None:
        self._scroll_by(-1)

    def action_scroll_down(self) -> None:
        self._scroll_by(1)

    def action_page_up(self) -> None:
        self._scroll_by(-max(1, self.scrollable_content_region.height - 1))

    def action_page_down(self) -> None:
        self._scroll_by(max(1, self.scrollable_content_region.height - 1))

    def _scroll_by(self, rows: int) -> None:
        # At once, not animated: an animation still under way when the next batch arrives
        # would be overtaken by following, and the key would seem to do nothing.
        if rows < 0 and self.scroll_y > 0:
            self.follow = False
        self.scroll_to(y=self.scroll_y + rows, animate=False, immediate=True)

    def action_follow(self) -> None:
        self.follow = True
        self._scroll_to_end()

    def action_top(self) -> None:
        self.follow = False
        self.scroll_to(x=0, y=0, animate=False, immediate=True)
