"""The job screen's two questions: which log to show, and "really cancel this job?"."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.logs.names import RankLog
from widgets.list_keys import KeyedOptionList


class LogPicker(ModalScreen[str | None]):
    """Every log of the job, rank logs first; dismisses with the chosen name, or None."""

    DEFAULT_CSS = """
    LogPicker { align: center middle; }
    LogPicker > Vertical {
        width: 80; height: auto; max-height: 80%; padding: 1 2;
        border: thick $primary; background: $surface;
    }
    LogPicker OptionList { height: auto; max-height: 24; }
    LogPicker .hint { color: $text-muted; }
    """
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "OptionList"

    def __init__(self, names: list[str], ranks: list[RankLog], current: str | None) -> None:
        super().__init__()
        self.names, self.ranks, self.current = names, ranks, current

    def compose(self) -> ComposeResult:
        labels = {r.name: r.label for r in self.ranks}
        width = max((len(label) for label in labels.values()), default=0)
        options = []
        for name in self.names:
            prompt = Text()
            prompt.append(f"{labels.get(name, ''):<{width}}  ", style="bold")
            prompt.append(name, style="" if name in labels else "dim")
            options.append(Option(prompt, id=name))
        with Vertical():
            yield Label("Show which log?", classes="question")
            yield KeyedOptionList(*options, id="logs")
            yield Static("enter: show it · escape: keep this one", classes="hint")

    def on_mount(self) -> None:
        if self.current in self.names:
            self.query_one(OptionList).highlighted = self.names.index(self.current)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; `y` or the Yes button dismisses True, `n`/escape False."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 64; height: auto; padding: 1 2;
        border: thick $error; background: $surface;
    }
    ConfirmScreen .question { text-style: bold; }
    ConfirmScreen .hint { color: $text-muted; margin-top: 1; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    AUTO_FOCUS = "#no"

    def __init__(self, question: str, detail: str = "", yes: str = "Yes") -> None:
        super().__init__()
        self.question, self.detail, self.yes = question, detail, yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, classes="question")
            if self.detail:
                yield Static(self.detail, classes="hint", markup=False)
            with Horizontal():
                yield Button(self.yes, id="yes", variant="error")
                yield Button("No", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
