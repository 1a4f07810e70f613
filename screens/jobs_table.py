"""`JobsTable`: the jobs list's table, which draws again only the cells whose facts changed.

A refresh every two seconds of hundreds of jobs would otherwise rebuild every `Text` and
re-measure every column on the event loop; here each row's facts (`screens.jobs_columns.Fact`:
plain text and a theme variable) are compared with those drawn, and a row that shows the same is
not touched. Columns dropped or back, a new theme, or rows added, gone or reordered draw every
row again, the cursor kept on its job.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding

from screens.jobs_columns import COLUMNS, Fact, cell
from widgets.list_keys import KeyedDataTable

LAST = len(COLUMNS) - 1
"""The cause or summary's column, the one cut to the screen's width."""


class JobsTable(KeyedDataTable):
    """The jobs, a row each; Enter opens the highlighted one."""

    BINDINGS: ClassVar = [Binding("enter", "select_cursor", "Open")]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._drawn: dict[str, tuple[tuple[Fact, ...], int | None]] = {}
        """Each row's facts and its last column's cut as drawn, by its key."""
        self._theme = ""

    def show(
        self,
        keys: list[str],
        facts: list[tuple[Fact, ...]],
        kept: list[int],
        cut: int | None,
        redraw: bool = False,
    ) -> None:
        """Show row `keys` with their `facts` in columns `kept` (indices in `COLUMNS`), the last
        cut to `cut` cells; `redraw`: every row again (as after a resize)."""
        labels = [COLUMNS[i] for i in kept]
        if labels != [str(column.label) for column in self.columns.values()]:
            self.clear(columns=True)  # columns dropped or back as the width changed
            self.add_columns(*labels)
            redraw = True
        if redraw or self.app.theme != self._theme or keys != [k.value for k in self.rows]:
            self._draw_all(keys, facts, kept, cut)
            return
        for key, row in zip(keys, facts, strict=True):
            self._draw_changed(key, row, kept, cut)

    def current_key(self) -> str | None:
        """The highlighted row's key, or None in an empty table."""
        if not self.row_count:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value

    def _draw_all(
        self, keys: list[str], facts: list[tuple[Fact, ...]], kept: list[int], cut: int | None
    ) -> None:
        keep = self.current_key()
        self.clear()
        for key, row in zip(keys, facts, strict=True):
            self.add_row(*(self._cell(row, i, cut) for i in kept), key=key)
        self._drawn = {key: (row, cut) for key, row in zip(keys, facts, strict=True)}
        self._theme = self.app.theme
        if keep in keys:
            self.move_cursor(row=keys.index(keep), animate=False)

    def _draw_changed(
        self, key: str, row: tuple[Fact, ...], kept: list[int], cut: int | None
    ) -> None:
        was, was_cut = self._drawn.get(key, ((), None))
        if (row, cut) == (was, was_cut):
            return
        for i, column in zip(kept, self.columns, strict=True):
            if was and row[i] == was[i] and (i != LAST or cut == was_cut):
                continue
            self.update_cell(key, column, self._cell(row, i, cut), update_width=True)
        self._drawn[key] = (row, cut)

    def _cell(self, row: tuple[Fact, ...], i: int, cut: int | None) -> Text:
        return cell(row[i], self._color, cut if i == LAST else None)

    def _color(self, variable: str) -> Style:
        """A theme colour as a Rich style for the cells ($text-muted: dim)."""
        if variable == "text-muted":
            return Style(dim=True)
        try:
            return Style.parse(self.app.theme_variables.get(variable) or "")
        except Exception:  # a theme value Rich cannot read ("auto 60%"): plain
            return Style()
