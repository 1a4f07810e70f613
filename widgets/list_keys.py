"""Lists that answer the keys less, vim and k9s users try first.

`j`/`k` down and up, `g`/`G` first and last, `ctrl+d`/`ctrl+u` half a page, beside the arrows,
Home/End and PgUp/PgDn the lists already have. Hidden from the footer (help lists them).
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding
from textual.widgets import DataTable, OptionList


def _half(height: int) -> int:
    return max(1, height // 2)


class KeyedOptionList(OptionList):
    """An `OptionList` with less/vim/k9s movement keys."""

    BINDINGS: ClassVar = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "first", "First", show=False),
        Binding("G", "last", "Last", show=False),
        Binding("ctrl+d", "half_page(1)", "Half a page down", show=False),
        Binding("ctrl+u", "half_page(-1)", "Half a page up", show=False),
    ]

    def action_half_page(self, direction: int) -> None:
        if not self.option_count:
            return
        at = self.highlighted if self.highlighted is not None else 0
        step = _half(self.scrollable_content_region.height)
        self.highlighted = min(self.option_count - 1, max(0, at + direction * step))


class KeyedDataTable(DataTable):
    """A `DataTable` (a row cursor) with less/vim/k9s movement keys."""

    BINDINGS: ClassVar = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "scroll_top", "First", show=False),
        Binding("G", "scroll_bottom", "Last", show=False),
        Binding("ctrl+d", "half_page(1)", "Half a page down", show=False),
        Binding("ctrl+u", "half_page(-1)", "Half a page up", show=False),
    ]

    def action_half_page(self, direction: int) -> None:
        if not self.row_count:
            return
        step = _half(self.scrollable_content_region.height)
        row = min(self.row_count - 1, max(0, self.cursor_row + direction * step))
        self.move_cursor(row=row)
