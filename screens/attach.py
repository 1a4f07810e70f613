"""`AttachScreen`: pick one of the workspace's recent Azure ML jobs to follow on the job screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.backends.base import JobHandle
from tui.core.words import counted
from widgets.list_keys import KeyedOptionList

if TYPE_CHECKING:
    from tui.backends.azureml import JobSummary


class AttachScreen(ModalScreen[JobHandle | None]):
    """The newest jobs of the workspace (`jobs.list`, asked in a thread worker); Enter picks one.

    `backend` is an `AzureMLBackend` (anything with `recent_jobs()`); dismisses with the picked
    job's handle, or None.
    """

    DEFAULT_CSS = """
    AttachScreen { align: center middle; }
    AttachScreen > Vertical {
        width: 100; max-width: 95%; height: auto; max-height: 90%; padding: 1 2;
        border: thick $primary; background: $surface;
    }
    AttachScreen OptionList { height: auto; max-height: 20; margin-top: 1; }
    AttachScreen #attach-status { height: auto; color: $text-muted; }
    AttachScreen #attach-status.-error { color: $error; }
    AttachScreen Horizontal { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#attach-jobs"

    def __init__(self, backend: Any) -> None:
        super().__init__()
        self.backend = backend
        self.jobs: list[JobSummary] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Attach to an Azure ML job", classes="question")
            yield Static("Asking Azure ML for the workspace's recent jobs…", id="attach-status")
            yield KeyedOptionList(id="attach-jobs")
            with Horizontal():
                yield Button("Open", id="ok", variant="primary", disabled=True)  # nothing yet
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.load_jobs()

    @work(thread=True, exclusive=True, exit_on_error=False, group="attach")
    def load_jobs(self) -> None:
        try:
            jobs = self.backend.recent_jobs()
        except Exception as err:  # a BackendError's one line: how to configure, sign in, …
            self.app.call_from_thread(self._show_error, str(err))
        else:
            self.app.call_from_thread(self._show_jobs, jobs)

    def _show_error(self, message: str) -> None:
        if self.is_mounted:
            status = self.query_one("#attach-status", Static)
            status.update(escape(message))
            status.add_class("-error")

    def _show_jobs(self, jobs: list[JobSummary]) -> None:
        if not self.is_mounted:
            return
        self.jobs = jobs
        status = self.query_one("#attach-status", Static)
        workspace = getattr(getattr(self.backend, "workspace", None), "name", "the workspace")
        note = jobs.note() if hasattr(jobs, "note") else ""
        if not jobs:
            status.update(
                f"No jobs to attach to in {escape(workspace)} ({escape(note)})."
                if note
                else f"No jobs in {escape(workspace)} yet."
            )
            return
        self.query_one("#ok", Button).disabled = False
        shown = f"{counted(len(jobs), 'recent job')} in {escape(workspace)}, newest first"
        status.update(f"{shown} ({escape(note)}):" if note else f"{shown}:")
        options = self.query_one(OptionList)
        options.clear_options()
        name_width = max(len(job.handle.name) for job in jobs)
        state_width = max(len(job.azure_status) for job in jobs)
        for job in jobs:
            when = job.created_at.astimezone().strftime("%m-%d %H:%M") if job.created_at else ""
            what = " · ".join(x for x in (job.display_name, job.experiment) if x)
            options.add_option(
                Option(
                    f"[b]{escape(job.handle.name.ljust(name_width))}[/b]  "
                    f"{escape(job.azure_status.ljust(state_width))}  {when:11}  "
                    f"[$text-muted]{escape(what)}[/]",
                    id=job.handle.name,
                )
            )
        options.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(event.option_index)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self._pick(self.query_one(OptionList).highlighted)
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _pick(self, index: int | None) -> None:
        if index is not None and 0 <= index < len(self.jobs):
            self.dismiss(self.jobs[index].handle)
