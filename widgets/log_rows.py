"""`LogRows`: a `LogStore`'s lines as the rows of a scroll view — which line each row shows,
how long lines wrap, the line-number gutter while filtering, and drawing the rows on screen.

Rows are numbered by line from the start of the log, so a paused view never shifts while lines
arrive. With wrap on, the vertical position still counts lines: the top row is the start of
line `scroll_y`, and the end is where the last line ends at the bottom. Only the rows on screen
are drawn (a Line-API `ScrollView`), each painted once per look (`log_paint`) and cached.

`LogSearch` and then `LogView` build on it; the view's state lives here, where drawing reads it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from pathlib import Path

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from widgets.log_paint import MAX_SHOWN, paint
from widgets.log_store import ERROR_BODY, ERROR_START, LogStore


class LogRows(ScrollView):
    """A log store drawn as rows: every line and the partial one, or only the filter's."""

    follow: var[bool] = var(True)
    """Stick to the newest line. Scrolling up turns it off; End or scrolling to the end, on."""
    wrap: var[bool] = var(False)
    """Wrap long lines at the view's width instead of scrolling sideways."""

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
        self._head_progress: Callable[[int], None] | None = None  # told as the head is indexed

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

    # ---- scrolling to a row ---------------------------------------------------------------

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

    # ---- drawing ------------------------------------------------------------------------

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
        found = self._store.search
        highlight = None
        if found is not None:
            highlight = (found.pattern, self._style("current" if current else "match"))
        return paint(raw, style, highlight, self.app.console)

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

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._generation += 1
