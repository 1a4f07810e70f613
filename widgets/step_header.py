"""The row of wizard steps at the top of each step, with the current one highlighted."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from widgets.theme_style import theme_style  # not env_table: the review's, not the first frame's

STEP_NAMES = ("Framework", "Launch", "Resources", "Code & env", "Review")


class StepHeader(Static):
    """`1 Framework › 2 Launch › …`: where the user is and what comes next."""

    DEFAULT_CSS = """
    StepHeader { height: 1; padding: 0 1; background: $panel; color: $text-muted; }
    """

    def __init__(self, current: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.current = current

    def render(self) -> Text:
        out = Text()
        for i, name in enumerate(STEP_NAMES):
            if i:
                out.append(" › ", style="dim")
            label = f"{i + 1} {name}"
            if i == self.current:
                out.append(label, style=theme_style(self.app.current_theme.primary, bold=True))
            elif i < self.current:
                out.append(label)
            else:
                out.append(label, style="dim")
        return out
