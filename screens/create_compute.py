"""Create the missing compute cluster: what it will be, the code that creates it, then progress.

Offered by the Submit dialog when the job's cluster does not exist. Nothing is created before
the user presses Create; the creation runs in a thread worker (azure-ai-ml blocks) and its
state shows as it changes. Dismisses with True once the cluster exists.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.syntax import Syntax
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, RadioButton, RadioSet, Static

from tui.core.plan_types import LaunchPlan
from tui.planning.sdk import Call, cluster_code, cluster_notes, sdk_cluster


class CreateComputeScreen(ModalScreen[bool]):
    """Dedicated or low priority, the notes for this job, the AmlCompute code; Create or Cancel."""

    DEFAULT_CSS = """
    CreateComputeScreen { align: center middle; }
    CreateComputeScreen > Vertical {
        width: 96; max-height: 90%; height: auto; padding: 1 2;
        border: thick $primary; background: $surface;
    }
    CreateComputeScreen #cluster-code { height: auto; max-height: 14; }
    CreateComputeScreen Horizontal { height: auto; margin-top: 1; }
    CreateComputeScreen #create-progress { height: auto; }
    """
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#create"

    def __init__(self, backend: Any, plan: LaunchPlan, name: str) -> None:
        super().__init__()
        self.backend, self.plan, self.cluster_name = backend, plan, name
        self._busy = False

    def _cluster(self) -> Call:
        low = self.query_one(RadioSet).pressed_index == 1
        return sdk_cluster(self.plan, self.cluster_name, low_priority=low)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(
                f"Compute cluster {self.cluster_name} does not exist. Create it for this job?",
                classes="question",
            )
            with RadioSet(id="tier"):
                yield RadioButton("Dedicated", id="dedicated", value=True)
                yield RadioButton("Low priority (cheaper, can be preempted)", id="low-priority")
            yield Static("", id="cluster-notes", markup=False)
            yield VerticalScroll(Static("", id="cluster-code-body"), id="cluster-code")
            yield Static("", id="create-progress", markup=False)
            with Horizontal():
                yield Button("Create cluster", id="create", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self._show()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        self._show()

    def _show(self) -> None:
        cluster = self._cluster()
        notes = "\n".join(f"• {n}" for n in cluster_notes(self.plan, cluster))
        self.query_one("#cluster-notes", Static).update(notes)
        code = Syntax(cluster_code(cluster), "python", theme="ansi_dark", word_wrap=True)
        self.query_one("#cluster-code-body", Static).update(code)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "create" and not self._busy:
            self._busy = True
            event.button.disabled = True
            self.query_one(RadioSet).disabled = True
            self._progress(f"creating compute cluster {self.cluster_name}…")
            self._create(self._cluster())
        elif event.button.id == "cancel":
            self.action_cancel()

    def action_cancel(self) -> None:
        if self._busy:
            self.notify("The cluster is being created; Azure ML finishes it either way.")
            return
        self.dismiss(False)

    @work(thread=True, exclusive=True, exit_on_error=False, group="create-compute")
    def _create(self, cluster: Call) -> None:
        try:
            summary = self.backend.create_compute(
                cluster, lambda line: self.app.call_from_thread(self._progress, line)
            )
        except Exception as err:  # BackendError: one line with the fix
            self.app.call_from_thread(self._failed, str(err))
        else:
            self.app.call_from_thread(self._created, summary)

    def _progress(self, line: str) -> None:
        if self.is_mounted:
            self.query_one("#create-progress", Static).update(line)

    def _failed(self, error: str) -> None:
        self._busy = False
        if not self.is_mounted:
            return
        self.query_one("#create-progress", Static).update(f"✗ {error}")
        self.query_one("#create-progress", Static).add_class("error")
        create = self.query_one("#create", Button)
        create.disabled = False
        create.label = "Try again"
        self.query_one(RadioSet).disabled = False

    def _created(self, summary: str) -> None:
        self._busy = False
        self.notify(summary)
        self.dismiss(True)
