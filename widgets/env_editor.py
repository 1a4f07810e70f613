"""A small editable table of extra environment variables."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, DataTable, Input


class EnvEditor(Vertical):
    """NAME / VALUE rows; type a name and value and press Add (or Enter), Delete removes a row."""

    DEFAULT_CSS = """
    EnvEditor { height: auto; }
    EnvEditor DataTable { height: auto; max-height: 8; }
    EnvEditor Horizontal { height: auto; margin-top: 1; }
    EnvEditor Button { margin-left: 1; }
    EnvEditor #env-name { width: 1fr; }
    EnvEditor #env-value { width: 2fr; }
    """
    BINDINGS: ClassVar = [Binding("delete", "remove", "Remove var", show=False)]

    class Changed(Message):
        """The variables changed."""

        def __init__(self, env: dict[str, str]) -> None:
            super().__init__()
            self.env = env

    def __init__(self, env: dict[str, str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.env = dict(env)

    def compose(self) -> ComposeResult:
        yield DataTable(cursor_type="row", id="env-table")
        with Horizontal():
            yield Input(placeholder="NAME", id="env-name", compact=True)
            yield Input(placeholder="value", id="env-value", compact=True)
            yield Button("Add", id="env-add", compact=True)
            yield Button("Remove", id="env-remove", compact=True)

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("name", "value")
        self.set_env(self.env)

    def set_env(self, env: dict[str, str]) -> None:
        self.env = dict(env)
        table = self.query_one(DataTable)
        table.clear()
        for name, value in self.env.items():
            table.add_row(name, value, key=name)

    def _add(self) -> None:
        name = self.query_one("#env-name", Input).value.strip()
        if not name:
            return
        value = self.query_one("#env-value", Input).value
        self.post_message(self.Changed(self.env | {name: value}))

    def action_remove(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            name = str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
            self.post_message(self.Changed({k: v for k, v in self.env.items() if k != name}))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id in ("env-name", "env-value"):
            event.stop()
            self._add()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "env-add":
            event.stop()
            self._add()
        elif event.button.id == "env-remove":
            event.stop()
            self.action_remove()

    def accepted(self) -> None:
        """The parent accepted the last change: clear the entry boxes."""
        self.query_one("#env-name", Input).value = ""
        self.query_one("#env-value", Input).value = ""
