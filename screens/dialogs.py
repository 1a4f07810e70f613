"""Small modal questions: a name or path, the export format, keep or cancel a running job on
quit (the submit dialog is `screens/submit.py`)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from widgets.key_footer import KeyFooter


class Dialog(ModalScreen):
    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > Vertical {
        width: 70; height: auto; max-height: 100%; overflow-y: auto; padding: 1 2;
        border: thick $primary; background: $surface;
    }
    Dialog Horizontal { height: auto; margin-top: 1; }
    Dialog .error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]

    def action_cancel(self) -> None:
        self.dismiss(None)


class PromptScreen(Dialog):
    """Ask for one line of text; dismisses with it, or None on cancel."""

    AUTO_FOCUS = "#answer"

    def __init__(self, title: str, value: str = "", hint: str = "") -> None:
        super().__init__()
        self.title_text, self.value, self.hint = title, value, hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, classes="question")
            yield Input(self.value, id="answer")
            yield Static(self.hint, classes="hint")
            yield Static("", id="problem", classes="error")
            with Horizontal():
                yield Button("OK", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(
            self.query_one(Input).value.strip() or None if event.button.id == "ok" else None
        )


class ExportScreen(Dialog):
    """Choose YAML / Python / JSON and a path; dismisses with (format, path) or None."""

    EXT: ClassVar = {"yaml": "job.yml", "sdk": "job.py", "json": "plan.json"}
    AUTO_FOCUS = "#path"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Export the job", classes="question")
            with RadioSet(id="format"):
                yield RadioButton("Job YAML (az ml job create --file)", id="fmt-yaml", value=True)
                yield RadioButton("Python (azure-ai-ml)", id="fmt-sdk")
                yield RadioButton("JSON (the whole plan, every rank)", id="fmt-json")
            yield Label("File")
            yield Input(self.EXT["yaml"], id="path")
            with Horizontal():
                yield Button("Export", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    def _format(self) -> str:
        pressed = self.query_one(RadioSet).pressed_button
        return (pressed.id or "fmt-yaml").removeprefix("fmt-") if pressed else "yaml"

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        path = self.query_one("#path", Input)
        if path.value in self.EXT.values():
            path.value = self.EXT[self._format()]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._done()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self._done()
        else:
            self.dismiss(None)

    def _done(self) -> None:
        path = self.query_one("#path", Input).value.strip()
        self.dismiss((self._format(), path) if path else None)


class QuitScreen(Dialog):
    """Quitting while a job this app submitted still runs: keep it (the default), cancel, stay.

    Dismisses with "keep", "cancel" or None (stay). A job is not a view: closing the app should
    not end it unless asked, so Enter keeps it running.
    """

    AUTO_FOCUS = "#keep"
    BINDINGS: ClassVar = [
        Binding("k", "answer('keep')", "Keep running"),
        Binding("c", "answer('cancel')", "Cancel job"),
        Binding("escape,s", "answer(None)", "Stay"),
    ]

    def __init__(self, names: list[str], reattach: str) -> None:
        super().__init__()
        self.names, self.reattach = names, reattach

    def compose(self) -> ComposeResult:
        jobs = ", ".join(self.names)
        one = len(self.names) == 1
        with Vertical():
            yield Label(
                f"{jobs} {'is' if one else 'are'} still running", classes="question", markup=False
            )
            yield Static(
                f"Keep it running: it goes on without this app; {self.reattach} opens it again. "
                "Cancel it: every process stops, the logs so far stay.",
                classes="hint",
                markup=False,
            )
            with Horizontal():
                yield Button("Keep running", id="keep", variant="primary")
                yield Button("Cancel the job" if one else "Cancel the jobs", id="cancel-job")
                yield Button("Stay", id="stay")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss({"keep": "keep", "cancel-job": "cancel"}.get(event.button.id or ""))

    def action_answer(self, answer: str | None) -> None:
        self.dismiss(answer)
