"""A framework's own options on the Code step (`tui.frameworks.base.Form`): a whole number typed
in an Input, a choice in a Select; below them, what the plan makes of them (its config file's
arithmetic, in the user's numbers).

Widget ids are the spec field names with dashes, so an error finds its field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, Select, Static

from tui.core.plan_types import LaunchPlan
from tui.core.spec import JobSpec

if TYPE_CHECKING:
    from tui.frameworks.base import Form


def _row(label: str, widget: Any) -> Horizontal:
    return Horizontal(Label(label, classes="field-label"), widget, classes="field-row")


def widget_id(field: str) -> str:
    return field.replace("_", "-")


class OptionsForm(Vertical):
    """Edits a framework's own options; the Code step hides it when the job runs its own
    command (and so its own files)."""

    DEFAULT_CSS = """
    OptionsForm { height: auto; }
    OptionsForm #form-explained { color: $text-muted; padding-left: 2; }
    """

    class Changed(Message):
        """The user changed one option (`field` is the JobSpec field)."""

        def __init__(self, field: str, value: Any) -> None:
            super().__init__()
            self.field = field
            self.value = value

    def __init__(self, form: Form, spec: JobSpec, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.form = form
        self._spec = spec
        self._fields = {widget_id(o.field): o.field for o in form.options}

    def compose(self) -> ComposeResult:
        spec = self._spec
        yield Label(self.form.title, classes="question")
        for option in self.form.options:
            value = getattr(spec, option.field)
            value = option.default if value is None else value
            wid = widget_id(option.field)
            if option.choices:
                widget: Any = Select(
                    list(option.choices),
                    value=value,
                    id=wid,
                    allow_blank=False,
                    classes="field",
                    compact=True,
                )
            else:
                widget = Input(str(value), id=wid, classes="field", compact=True)
            yield _row(option.label, widget)
        yield Static("", id="form-explained")

    def show(self, p: LaunchPlan) -> None:
        """Show what plan `p` makes of the options (its config file's explanations)."""
        if p.config_file is None:
            text = self.form.own_file
        else:
            text = "\n".join(p.config_file.explanations)
        self.query_one("#form-explained", Static).update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        field = self._fields.get(event.input.id or "")
        if field is None:
            return
        event.stop()
        try:
            value: Any = int(event.value.strip())
        except ValueError:
            value = event.value  # the spec's validator names the field and the fix
        self.post_message(self.Changed(field, value))

    def on_select_changed(self, event: Select.Changed) -> None:
        field = self._fields.get(event.select.id or "")
        if field is None or event.value is Select.BLANK:
            return
        event.stop()
        self.post_message(self.Changed(field, event.value))
