"""The Textual app. Until the wizard lands, a single screen that shows the default job's plan."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from tui.core.plan import plan
from tui.core.spec import JobSpec


class DtrainApp(App[None]):
    """dtrain-tui: holds the current JobSpec; the wizard steps edit it."""

    TITLE = "dtrain-tui"
    SUB_TITLE = "distributed training on Azure ML"
    BINDINGS: ClassVar = [("q", "quit", "Quit")]

    def __init__(self, spec: JobSpec | None = None) -> None:
        super().__init__()
        self.spec = spec or JobSpec()

    def compose(self) -> ComposeResult:
        from tui.render import commands, summary, warnings

        p = plan(self.spec)
        yield Header()
        with VerticalScroll():
            yield Static(summary(p))
            yield Static(commands(p))
            yield Static(warnings(p))
            yield Static(
                "The step-by-step wizard is on its way. Meanwhile: `dtrain-tui presets`, "
                "`dtrain-tui preview --preset pytorch-ddp --show all`, `dtrain-tui export`."
            )
        yield Footer()


def run() -> int:
    DtrainApp().run()
    return 0
