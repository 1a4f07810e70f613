"""`LogView`: a live log that stays fast at any size — follow, wrap, search, filter, errors.

A Line-API `ScrollView`, not Textual's `Log`/`RichLog` (they slow down per line and, with
`max_lines`, stop repainting; see the Textual reference §2.4): only visible rows are drawn, one
`append()` takes a whole poll's batch, and the lines live in a `LogStore` (the newest in memory,
all of them in a spool file on disk), so search, filter and save reach lines long scrolled out.

Rows are numbered by line from the start of the log, so a paused view never shifts while lines
arrive. With wrap on, the vertical position still counts lines: the top row is the start of
line `scroll_y`, and the end is where the last line ends at the bottom.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from widgets.log_store import BLOCK, ERROR_BODY, ERROR_START, LineSet, LogStore

MAX_SHOWN = 10_000
"""Characters of one line drawn; the rest is counted (search, filter and save see it all)."""
SYNC_SCAN_BYTES = 8 << 20
"""Spools up to this size are searched at once; larger ones in a thread (about 1 s per GB)."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0, DEL and C1 (U+009B is a CSI)
_STYLES = ("error", "error-start", "match", "current", "partial", "gutter")


class LogView(ScrollView, can_focus=True):
    """A followed log: `append()` a batch per poll, `set_partial()` the live progress line."""

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

    follow: var[bool] = var(True)
    """Stick to the newest line. Scrolling up turns it off; End or scrolling to the end, on."""
    wrap: var[bool] = var(False)
    """Wrap long lines at the view's width instead of scrolling sideways."""

    class Scanned(Message):
        """A search or filter finished reading the spool (its counts are final)."""

    def __init__(
        self,
        *,
        window: int = 50_000,
        spool_dir: Path | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._window = window
        self._spool_dir = spool_dir
        self._store = LogStore(window, spool_dir)
        self._partial = ""
        self._match: int | None = None  # index into the search's lines
        self._error: int | None = None  # index into the error starts
        self._strips: LRUCache[tuple[int, int], Strip] = LRUCache(2048)
        self._generation = 0  # bumped when what a line looks like changes
        self._styles: dict[str, Style] = {}
        self._auto_scroll = False
        self._rows: list[tuple[int, int]] | None = None  # the layout of the frame being drawn

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

    @property
    def shown_count(self) -> int:
        """Rows in the view: every line (and the partial one), or the filter's matches."""
        return self._item_count()

    @property
    def top_line(self) -> int | None:
        """The number of the line at the top of the view."""
        items = self._item_count()
        if not items:
            return None
        return self._item_line(min(items - 1, round(self.scroll_y)))

    def visible_lines(self) -> list[str]:
        """The text of the rows on screen (for tests and copy), partial line included."""
        height = self.scrollable_content_region.height
        rows = self._layout(height)
        seen: list[int] = []
        for item, _ in rows:
            if not seen or seen[-1] != item:
                seen.append(item)
        return [self._item_text(item) for item in seen]

    # ---- feeding it ---------------------------------------------------------------------

    def append(self, lines: Sequence[str]) -> None:
        """Add one batch of complete lines (call once per poll, not per line)."""
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

    # ---- search, filter, errors ---------------------------------------------------------

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
            top = self.top_line or 0
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
            top = self.top_line or 0
            i = bisect_left(starts, top) if forward else bisect_left(starts, top) - 1
        else:
            i = self._error + (1 if forward else -1)
        self._error = i % len(starts)
        self.go_to_line(starts[self._error])
        return True

    def first_error(self) -> bool:
        """Go to the first error in the log; False when there is none."""
        if not self._store.error_starts:
            return False
        self._error = 0
        self.go_to_line(self._store.error_starts[0])
        return True

    def on_screen(self, line: int) -> bool:
        """Whether line `line` is among the rows the view shows now."""
        if not self._shows_line(line):
            return False
        item = self._item_for_line(line)
        return any(row == item for row, _ in self._layout(self.scrollable_content_region.height))

    def go_to_line(self, line: int, column: int = 0) -> None:
        """Show line `line` a third of the way down (pauses follow)."""
        self.follow = False
        self._scroll_to_item(self._item_for_line(line), context=None)
        if not self.wrap:
            width = self.scrollable_content_region.width - self._gutter_width()
            x = 0 if column < width - 8 else column - width // 2
            self.scroll_to(x=x, animate=False, immediate=True, force=True)
        self.refresh()

    def _scan(self, found: LineSet, then: Callable[[], None]) -> None:
        store = self._store
        store.flush()
        if store.size <= SYNC_SCAN_BYTES:
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

    def _match_column(self, line: int) -> int:
        found = self._store.search
        m = None if found is None else found.pattern.search(self._store.line(line).expandtabs(8))
        return m.start() if m else 0

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

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._generation += 1

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

    def _scroll_to_end(self) -> None:
        self._auto_scroll = True
        try:
            self._scroll_y_to(self.max_scroll_y)
        finally:
            self._auto_scroll = False

    def _scroll_to_item(self, item: int, context: int | None) -> None:
        height = self.scrollable_content_region.height
        if context is None:
            context = 1 if self.wrap else height // 3
        self._auto_scroll = True
        try:
            self._scroll_y_to(max(0, item - context))
        finally:
            self._auto_scroll = False

    def _scroll_y_to(self, y: float) -> None:
        # Forced: right after new lines arrive, the vertical scrollbar that permits scrolling
        # only appears at the next layout, and an unforced scroll before it is silently
        # dropped (the view stays at the top while the lines it was sent to are further down).
        self.scroll_to(y=y, animate=False, immediate=True, force=True)

    # ---- rows ---------------------------------------------------------------------------

    def _item_count(self) -> int:
        store = self._store
        if store.filter is not None:
            return len(store.filter.lines)
        return store.count + (1 if self._partial else 0)

    def _item_line(self, item: int) -> int | None:
        """The line shown as row `item`; None for the partial line."""
        store = self._store
        if store.filter is not None:
            return store.filter.lines[item]
        return item if item < store.count else None

    def _item_for_line(self, line: int) -> int:
        store = self._store
        if store.filter is None:
            return line
        return min(bisect_left(store.filter.lines, line), max(0, len(store.filter.lines) - 1))

    def _item_text(self, item: int) -> str:
        line = self._item_line(item)
        return self._partial if line is None else self._store.line(line)

    def _shows_line(self, line: int) -> bool:
        found = self._store.filter
        if found is None:
            return True
        i = bisect_left(found.lines, line)
        return i < len(found.lines) and found.lines[i] == line

    def _gutter_width(self) -> int:
        """Line numbers are shown while filtering, so a match says where it is."""
        if self._store.filter is None:
            return 0
        return len(str(self._store.count)) + 1

    def _update_virtual_size(self) -> None:
        items = self._item_count()
        region = self.scrollable_content_region
        if self.wrap:
            # The end is the top line from which the last lines just fill the view.
            end = self._end_top(items, region.height)
            self.virtual_size = Size(region.width, end + region.height)
        else:
            width = min(MAX_SHOWN + 40, max(self._store.max_width, len(self._partial)))
            width += self._gutter_width()
            self.virtual_size = Size(width + 1, items)

    def _end_top(self, items: int, height: int) -> int:
        total, top = 0, items
        while top > 0:
            rows = self._rows_of(top - 1)
            if total + rows > height:
                break
            total += rows
            top -= 1
        return min(top, max(0, items - 1))

    def _rows_of(self, item: int) -> int:
        width = max(1, self.scrollable_content_region.width - self._gutter_width())
        return max(1, -(-self._strip(item).cell_length // width))

    def _layout(self, height: int) -> list[tuple[int, int]]:
        """(item, wrapped row of it) for each row of the view, top to bottom."""
        items = self._item_count()
        top = round(self.scroll_y)
        if not self.wrap:
            return [(item, 0) for item in range(top, min(items, top + height))]
        rows: list[tuple[int, int]] = []
        item = top
        while item < items and len(rows) < height:
            rows.extend((item, r) for r in range(self._rows_of(item)))
            item += 1
        if len(rows) >= height or top == 0:
            return rows[:height]
        # The last lines do not fill the view: anchor the last one to the bottom instead.
        rows, item = [], items - 1
        while item >= 0 and len(rows) < height:
            rows[:0] = [(item, r) for r in range(self._rows_of(item))]
            item -= 1
        return rows[-height:]

    def render_lines(self, crop: Region) -> list[Strip]:
        self._rows = self._layout(self.scrollable_content_region.height)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        rows = self._rows
        if rows is None:
            rows = self._rows = self._layout(self.scrollable_content_region.height)
        if y >= len(rows):
            return Strip.blank(width)
        item, part = rows[y]
        strip = self._strip(item)
        gutter = self._gutter_width()
        body = width - gutter
        if self.wrap:
            strip = strip.crop(part * body, (part + 1) * body)
        else:
            x = round(self.scroll_x)
            strip = strip.crop(x, x + body)
        if gutter:
            line = self._item_line(item)
            number = f"{line + 1:>{gutter - 1}} " if part == 0 and line is not None else ""
            strip = Strip.join(
                [Strip([Segment(number.ljust(gutter), self._style("gutter"))]), strip]
            )
        return strip.extend_cell_length(width)

    def _strip(self, item: int) -> Strip:
        """Row `item`, whole (not cropped), styled: errors, matches, the current match."""
        line = self._item_line(item)
        if line is None:
            return self._render_text(self._partial, self._style("partial"), False)
        key = (line, self._generation)
        cached = self._strips.get(key)
        if cached is not None:
            return cached
        kind = self._store.error_kind(line)
        style = (
            self._style("error-start")
            if kind == ERROR_START
            else self._style("error")
            if kind == ERROR_BODY
            else Style()
        )
        found = self._store.search
        current = (
            found is not None
            and self._match is not None
            and self._match < len(found.lines)
            and found.lines[self._match] == line
        )
        strip = self._render_text(self._store.line(line), style, current)
        self._strips[key] = strip
        return strip

    def _render_text(self, raw: str, style: Style, current: bool) -> Strip:
        if len(raw) > MAX_SHOWN:
            raw = f"{raw[:MAX_SHOWN]} … ({len(raw) - MAX_SHOWN:,} more characters)"
        if "\t" in raw:
            raw = raw.expandtabs(8)
        found = self._store.search
        if "\x1b" in raw:
            text = Text.from_ansi(raw, style=style, no_wrap=True, end="")
            if not text.plain.isprintable():
                text.plain = _CONTROL.sub("\ufffd", text.plain)
        else:
            if not raw.isprintable():
                raw = _CONTROL.sub("\ufffd", raw)
            if found is None or not found.pattern.search(raw):
                return Strip([Segment(raw, style)]) if raw else Strip([])
            text = Text(raw, style=style, no_wrap=True, end="")
        if found is not None:
            match_style = self._style("current" if current else "match")
            for m in found.pattern.finditer(text.plain):
                text.stylize(match_style, m.start(), m.end())
        return Strip(list(text.render(self.app.console)))

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self.get_component_rich_style(f"log-view--{name}")
            if name not in ("match", "current"):
                # Text only: the view's own background shows through (as on plain lines).
                style = Style(
                    color=style.color, bold=style.bold, italic=style.italic, dim=style.dim
                )
            self._styles[name] = style
        return style
