"""`LogSearch`: finding things in a log view — the search (every match highlighted, `n`/`N`
from one to the next), the filter (only the lines that contain a text) and the errors.

Both read the whole spool, not just the lines in memory: a spool up to `SYNC_SCAN_BYTES` at
once, a larger one in a thread (about 1 s per GB), after which `LogView.Scanned` is posted and
the counts are final. Lines that arrive meanwhile are matched as they are appended (`LineSet`).
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_left
from collections.abc import Callable

from textual import work
from textual.message import Message
from textual.worker import get_current_worker

from widgets.log_head import scan_head
from widgets.log_rows import LogRows
from widgets.log_store import LineSet, LogStore

SYNC_SCAN_BYTES = 8 << 20
"""Spools up to this size are searched at once; larger ones in a thread (about 1 s per GB)."""


class LogSearch(LogRows):
    """Search, filter and errors over a log store's rows; `LogView` is the widget."""

    # Named for the widget that posts it: its handler is `on_log_view_scanned`.
    class Scanned(Message, namespace="log_view"):
        """A search or filter finished reading the spool (its counts are final)."""

    @property
    def search_query(self) -> str | None:
        found = self._store.search
        return None if found is None else found.query

    @property
    def filter_query(self) -> str | None:
        found = self._store.filter
        return None if found is None else found.query

    @property
    def match_count(self) -> int | None:
        """Lines matching the search (None while the spool is still being searched)."""
        found = self._store.search
        return len(found.lines) if found is not None and found.complete else None

    @property
    def match_number(self) -> int | None:
        """Which match is current, from 1."""
        return None if self._match is None else self._match + 1

    @property
    def error_count(self) -> int:
        return len(self._store.error_starts)

    @property
    def error_number(self) -> int | None:
        return None if self._error is None else self._error + 1

    def search(self, query: str) -> None:
        """Highlight `query` (literal; smart case) in every line and go to its first match
        at or after the top of the view (wrapping to the first in the log). "" clears it."""
        store = self._store
        store.search = LineSet(query) if query else None
        self._match = None
        self._generation += 1
        self.refresh()
        if store.search is not None:
            self._scan(store.search, lambda: self.next_match(True))

    def set_filter(self, query: str | None) -> None:
        """Show only the lines that contain `query` (None or "" shows every line again)."""
        store = self._store
        top = self.top_line
        store.filter = LineSet(query) if query else None
        self._generation += 1
        self._update_virtual_size()

        def place() -> None:
            self._update_virtual_size()
            if self.follow:
                self._scroll_to_end()
            elif top is not None:
                self._scroll_to_item(self._item_for_line(top), context=0)
            self.refresh()

        if store.filter is not None:
            self._scan(store.filter, place)
        else:
            place()

    def next_match(self, forward: bool = True) -> bool:
        """Go to the next (or previous) match, wrapping around; False when there is none."""
        found = self._store.search
        if found is None or not found.lines:
            return False
        lines = found.lines
        if self._match is None:
            top = self._start_line()
            i = bisect_left(lines, top) if forward else bisect_left(lines, top) - 1
        else:
            i = self._match + (1 if forward else -1)
        for _ in range(len(lines)):
            i %= len(lines)
            if self._shows_line(lines[i]):
                self._match = i
                self._generation += 1
                self.go_to_line(lines[i], column=self._match_column(lines[i]))
                return True
            i += 1 if forward else -1
        return False

    def next_error(self, forward: bool = True) -> bool:
        """Go to the start of the next (or previous) error; False when there are none."""
        starts = self._store.error_starts
        if not starts:
            return False
        if self._error is None:
            top = self._start_line()
            i = bisect_left(starts, top) if forward else bisect_left(starts, top) - 1
        else:
            i = self._error + (1 if forward else -1)
        self._error = i % len(starts)
        self.go_to_line(starts[self._error])
        return True

    def _start_line(self) -> int:
        """Where a first search or error jump starts: the top of the view, or, while the view
        follows the end, the top of its last page (where it is, or is about to be: a log just
        read may not have been scrolled there yet)."""
        items = self._item_count()
        if self.follow and items:
            return self._item_line(max(0, items - self.scrollable_content_region.height))
        return self.top_line or 0

    def first_error(self) -> bool:
        """Go to the first error in the log; False when there is none."""
        if not self._store.error_starts:
            return False
        self._error = 0
        self.go_to_line(self._store.error_starts[0])
        return True

    @property
    def search_progress(self) -> float | None:
        """How much of the log the search has read, 0 to 1 (None when it is not running)."""
        found = self._store.search
        return None if found is None or found.complete else found.progress

    def _scan(self, found: LineSet, then: Callable[[], None]) -> None:
        store = self._store
        store.flush()
        head = store.head
        if head is not None and head.done and head.end + store.size <= SYNC_SCAN_BYTES:
            numbers, matches = array("Q"), found.pattern.search
            scan_head(head, found.query, lambda t: bool(matches(t)), lambda n, _: numbers.extend(n))
            shift = store.head_lines
            found.scanned(
                numbers + array("Q", (n + shift for n in store.scan(found.pattern, store.size)))
            )
            then()
            self.post_message(self.Scanned())
        elif head is not None:
            self._scan_head(store, found, store.size, then)
        elif store.size <= SYNC_SCAN_BYTES:
            found.scanned(store.scan(found.pattern, store.size))
            then()
            self.post_message(self.Scanned())
        else:
            self._scan_in_thread(store, found, store.size, then)

    @work(thread=True, group="log-scan", exit_on_error=False)
    def _scan_in_thread(
        self, store: LogStore, found: LineSet, size: int, then: Callable[[], None]
    ) -> None:
        try:
            result = store.scan(found.pattern, size)
        except OSError:
            return  # the spool went away: the log was switched or the view closed
        self.app.call_from_thread(self._scanned, store, found, result, then)

    def _scanned(self, store: LogStore, found: LineSet, result, then) -> None:
        if store is not self._store or found not in (store.search, store.filter):
            return
        found.scanned(result)
        self._generation += 1
        then()
        self.post_message(self.Scanned())

    # ---- a log with a head (log_head.py): its bytes searched as they lie -------------------

    @work(thread=True, group="log-scan", exit_on_error=False)
    def _scan_head(
        self, store: LogStore, found: LineSet, size: int, then: Callable[[], None]
    ) -> None:
        """Search the head's bytes (each read's matches shown as they are found), wait for the
        index to number them all, then the spool's first `size` bytes."""
        worker = get_current_worker()
        head = store.head
        assert head is not None

        def stop() -> bool:
            return worker.is_cancelled or store.closed or found not in (store.search, store.filter)

        def deliver(numbers: array, done: int) -> None:
            found.progress = done / max(1, head.end)
            if numbers:
                self.app.call_from_thread(self._head_matches, store, found, numbers)

        try:
            matches = found.pattern.search
            scan_head(head, found.query, lambda text: bool(matches(text)), deliver, stop)
            while not stop() and not head.done:
                time.sleep(0.02)  # the matches are numbered; the spool's come after the head
            if stop():
                return
            result = store.scan(found.pattern, size)
            self.app.call_from_thread(self._head_scanned, store, found, result, then)
        except (OSError, RuntimeError):
            return  # the spool went away, or the app is closing

    def _head_matches(self, store: LogStore, found: LineSet, numbers: array) -> None:
        if store is self._store and found in (store.search, store.filter):
            found.held.extend(numbers)
            self._release_held()

    def _release_held(self) -> None:
        """Move the head's matches the index has reached into their line sets."""
        store = self._store
        for found in (store.search, store.filter):
            if found is None or not found.held:
                continue
            k = bisect_left(found.held, store.head_lines)
            if not k:
                continue
            found.lines.extend(found.held[:k])
            del found.held[:k]
            self._generation += 1
            if found is store.filter:
                self._update_virtual_size()
            elif self._match is None:
                self.next_match(True)  # the first hit, as soon as it is found
            self.refresh()

    def _head_scanned(self, store: LogStore, found: LineSet, result: array, then) -> None:
        if store is not self._store or found not in (store.search, store.filter):
            return
        self._release_held()
        shift = store.head_lines
        found.scanned(found.lines + array("Q", (n + shift for n in result)))
        self._generation += 1
        if found is store.filter or self._match is None:
            then()
        self.refresh()
        self.post_message(self.Scanned())

    def _match_column(self, line: int) -> int:
        found = self._store.search
        m = None if found is None else found.pattern.search(self._store.line(line).expandtabs(8))
        return m.start() if m else 0
