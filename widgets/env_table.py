"""Every rank's environment in one scrollable table, coloured by who sets each variable.

A Line-API view: only the visible rows are rendered, so 1,024 ranks scroll as fast as 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.color import Color
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.core.plan_types import Origin
from widgets.theme_style import theme_style

if TYPE_CHECKING:
    from tui.core.plan_types import LaunchPlan, RankPlan

MAX_CELL = 28
KEY_COLUMNS = ("rank", "node", "local")
TASK_KEY_COLUMNS = ("task", "node")
"""Where processes are tasks (worker, ps), one per node, with no rank: the framework's words."""


def _key_columns(plan: LaunchPlan) -> tuple[str, ...]:
    return TASK_KEY_COLUMNS if plan.tasks else KEY_COLUMNS


def _key_values(rank: RankPlan, plan: LaunchPlan) -> tuple[str, ...]:
    if plan.tasks:
        return (f"{rank.role} {rank.task_index}", str(rank.node))
    return (str(rank.rank), str(rank.node), str(rank.local_rank))


def origin_colors(theme) -> dict[Origin, Style]:
    """One theme colour per kind of origin, so the table reads right in every theme; Open MPI
    its own, beside the launchers."""
    kinds = {
        "platform": theme_style(theme.primary),
        "launcher": theme_style(theme.accent or theme.secondary),
        "command": theme_style(theme.secondary or theme.primary),
        "user": theme_style(theme.success or theme.primary),
        # Set inside the process by the framework itself (on import or at setup).
        "framework": theme_style(theme.accent or theme.secondary, italic=True),
    }
    colors = {origin: kinds[origin.kind] for origin in Origin.known()}
    colors[Origin.OPENMPI] = theme_style(theme.warning or theme.primary)
    return colors


class EnvTable(ScrollView, can_focus=True):
    """Rows are ranks, columns are variables; a cell's colour says who set it."""

    DEFAULT_CSS = """
    EnvTable { height: 1fr; }
    """
    BINDINGS: ClassVar = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "move(-20)", show=False),
        Binding("pagedown", "move(20)", show=False),
        Binding("home", "move(-1000000)", show=False),
        Binding("end", "move(1000000)", show=False),
    ]

    cursor: reactive[int] = reactive(0)
    """The highlighted rank."""

    class Highlighted(Message):
        """The highlighted rank changed (or the plan did)."""

        def __init__(self, rank: RankPlan) -> None:
            super().__init__()
            self.rank = rank

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._plan: LaunchPlan | None = None
        self._columns: list[tuple[str, int]] = []

    def set_plan(self, plan: LaunchPlan) -> None:
        """Show `plan`'s ranks. Cheap: widths come from the first node's ranks, not all of them."""
        self._plan = plan
        names: dict[str, int] = {}
        sample = plan.ranks[: max(1, plan.workers_per_node)] + plan.ranks[-1:]
        for r in sample:
            for v in r.env:
                width = min(MAX_CELL, max(len(v.name), len(v.value)))
                names[v.name] = max(names.get(v.name, 0), width)
        widest = max(len(v) for v in _key_values(plan.ranks[-1], plan))
        self._keys = _key_columns(plan)
        keys = [(k, max(len(k), widest, len(str(len(plan.ranks))))) for k in self._keys]
        self._columns = keys + list(names.items())
        width = sum(w + 2 for _, w in self._columns)
        self.cursor = min(self.cursor, len(plan.ranks) - 1)
        self.virtual_size = Size(width, len(plan.ranks) + 1)
        self.post_message(self.Highlighted(plan.ranks[self.cursor]))
        self.refresh()

    def action_move(self, delta: int) -> None:
        if self._plan:
            self.cursor = max(0, min(len(self._plan.ranks) - 1, self.cursor + delta))

    def watch_cursor(self, cursor: int) -> None:
        top = self.scroll_offset.y
        visible = max(1, self.size.height - 1)
        if cursor < top:
            self.scroll_to(y=cursor, animate=False)
        elif cursor >= top + visible:
            self.scroll_to(y=cursor - visible + 1, animate=False)
        if self._plan is not None:
            self.post_message(self.Highlighted(self._plan.ranks[cursor]))
        self.refresh()

    def render_line(self, y: int) -> Strip:
        if self._plan is None:
            return Strip.blank(self.size.width)
        scroll_x, scroll_y = self.scroll_offset
        theme = self.app.current_theme
        if y == 0:
            head = Style(bold=True, underline=True)
            segments = [Segment(f"{name:<{w}}  ", head) for name, w in self._columns]
        else:
            index = scroll_y + y - 1
            if index >= len(self._plan.ranks):
                return Strip.blank(self.size.width)
            segments = self._row(index, theme)
        strip = Strip(segments).crop(scroll_x, scroll_x + self.size.width)
        return strip.extend_cell_length(self.size.width)

    def _row(self, index: int, theme) -> list[Segment]:
        rank = self._plan.ranks[index]
        colors = origin_colors(theme)
        selected = index == self.cursor
        base = (
            Style(bgcolor=Color.parse(theme.primary).rich_color, bold=True) if selected else Style()
        )
        env = {v.name: v for v in rank.env}
        segments = [
            Segment(f"{value:<{w}}  ", base)
            for value, (_, w) in zip(_key_values(rank, self._plan), self._columns, strict=False)
        ]
        for name, w in self._columns[len(self._keys) :]:
            var = env.get(name)
            if var is None:
                segments.append(Segment(" " * (w + 2), base))
                continue
            text = var.value if len(var.value) <= w else var.value[: w - 1] + "…"
            style = base if selected else base + colors.get(var.origin, Style())
            segments.append(Segment(f"{text:<{w}}  ", style))
        return segments

    def on_click(self, event) -> None:
        if self._plan and event.y >= 1:
            self.cursor = min(len(self._plan.ranks) - 1, self.scroll_offset.y + event.y - 1)
