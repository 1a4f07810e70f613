"""`WorkspaceForm`: the Submit step's subscription → resource group → workspace, picked from what
the signed-in identity can see (`tui.backends.azureml.arm`), each field's problem said beside it,
all three at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.message import Message
from textual.widgets import Label, Select, Static

if TYPE_CHECKING:
    from tui.backends.azureml.arm import Choices
    from tui.backends.azureml.workspace import Workspace

FIELDS = {
    "subscription": "Subscription",
    "resource group": "Resource group",
    "workspace": "Workspace",
}


def _wid(field: str) -> str:
    return "ws-" + field.replace(" ", "-")


class WorkspaceForm(Vertical):
    """Three lists filled from `show(found, choices)`; a value found elsewhere (flags, env,
    config.json, the remembered choice) that the identity cannot see stays shown, marked, with
    what is wrong. Posts `Chosen` after each change: the workspace when all three are right."""

    DEFAULT_CSS = """
    WorkspaceForm { height: auto; margin-top: 1; }
    WorkspaceForm .ws-row, WorkspaceForm .ws-row SelectCurrent { height: auto; margin-top: 0; }
    WorkspaceForm .ws-row Label { width: 16; }
    WorkspaceForm Select { width: 1fr; }
    WorkspaceForm .ws-problem { color: $error; height: auto; }
    """

    class Chosen(Message):
        """The fields changed: `workspace` is the one to submit to, or None while a field is
        missing or wrong."""

        def __init__(self, workspace: Workspace | None) -> None:
            super().__init__()
            self.workspace = workspace

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.choices: Choices | None = None
        self.problems: dict[str, str] = {}
        """Field → what is missing or wrong in it (empty: the choice is complete)."""
        self._set: dict[str, object] = {}
        """Select id → the value this form last put there (its Changed arrives later)."""

    def compose(self) -> ComposeResult:
        for field, title in FIELDS.items():
            with Horizontal(classes="ws-row"):
                yield Label(title)
                yield Select([], id=_wid(field), prompt=f"choose a {field}", compact=True)
            yield Static("", id=f"{_wid(field)}-problem", classes="ws-problem")

    def _select(self, field: str) -> Select:
        return self.query_one(f"#{_wid(field)}", Select)

    def value(self, field: str) -> str:
        value = self._select(field).value
        return "" if value is Select.NULL else str(value)

    def show(self, found: Workspace | None, choices: Choices) -> None:
        """Fill the lists from `choices`, starting from `found` (or the only choice there is)."""
        self.choices = choices
        subs = list(choices.subscriptions)
        start = {
            "subscription": found.subscription_id if found else (subs[0] if len(subs) == 1 else ""),
            "resource group": found.resource_group if found else "",
            "workspace": found.name if found else "",
        }
        self._fill("subscription", [(n, s) for s, n in choices.subscriptions.items()], start)
        self._refill(start)

    def _fill(self, field: str, options: list[tuple[str, str]], start: dict[str, str]) -> None:
        """Set `field`'s options; its start value stays, marked, when it is not among them."""
        want = start.get(field, "")
        values = {v for _, v in options}
        if not want and len(options) == 1:
            want = options[0][1]
        if want and want not in values:
            options = [(f"{want} (not found)", want), *options]
        select = self._select(field)
        select.set_options(options)
        select.value = want if want else Select.NULL
        self._set[select.id or ""] = select.value

    def _refill(self, start: dict[str, str]) -> None:
        """The groups of the chosen subscription and the workspaces of the chosen group."""
        assert self.choices is not None
        sub = self.value("subscription")
        groups = self.choices.groups(sub)
        self._fill("resource group", [(g, g) for g in groups], start)
        names = self.choices.names(sub, self.value("resource group"))
        self._fill("workspace", [(n, n) for n in names], start)
        self.check()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value != event.select.value:
            return  # stale: the value has changed again since (set_options, then value)
        if self.choices is None or self._set.get(event.select.id or "") == event.value:
            return  # the form's own change, not the user's
        self._set[event.select.id or ""] = event.value
        start = {f: self.value(f) for f in FIELDS}
        if event.select.id == _wid("subscription"):
            start["resource group"] = start["workspace"] = ""
        elif event.select.id == _wid("resource group"):
            start["workspace"] = ""
        self._refill(start)

    def check(self) -> None:
        """Say every field's problem at once; post `Chosen` when there is none."""
        from tui.backends.azureml.arm import problems
        from tui.backends.azureml.workspace import Workspace

        assert self.choices is not None
        values = [self.value(f) for f in FIELDS]
        self.problems = problems(self.choices, *values)
        for field in FIELDS:
            problem = self.problems.get(field, "")
            said = self.query_one(f"#{_wid(field)}-problem", Static)
            said.update(f"✗ {escape(problem)}" if problem else "")
            said.display = bool(problem)
        chosen = None if self.problems else Workspace(*values, {"workspace": "chosen here"})
        self.post_message(self.Chosen(chosen))
