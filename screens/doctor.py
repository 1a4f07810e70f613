"""`DoctorScreen`: the doctor's answer for one job — who failed first, why, the line, the fix
— and where its time went: each phase (waiting, running, after the first failure) with how long
it took and what it cost at its nodes' price, as `dtrain-tui doctor` prints them.

The jobs list opens it with `d`, the job screen with `t`. The logs are read in an async worker
(`jobs_rows.diagnosis`); a diagnosis the list already has is shown at once, then again with the
phases once the logs are read; an ended job's phases, once read, are kept by the list.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from screens.jobs_rows import JobRow, diagnosis


class DoctorScreen(ModalScreen[Any]):
    """Dismisses with the `Diagnosis` (None if it could not be made) so the list keeps it."""

    DEFAULT_CSS = """
    DoctorScreen { align: center middle; }
    DoctorScreen > Vertical {
        width: 90%; max-width: 110; height: auto; max-height: 90%; padding: 1 2;
        border: thick $primary; background: $surface;
    }
    DoctorScreen .question { text-style: bold; color: $primary; }
    DoctorScreen VerticalScroll { height: auto; max-height: 30; margin-top: 1; }
    DoctorScreen #doctor-text.-error { color: $error; }
    DoctorScreen .hint { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar = [Binding("escape,q,d,enter", "close", "Close")]

    def __init__(self, row: JobRow, known: Any = None, timeline: list[str] | None = None) -> None:
        super().__init__()
        self.row = row
        self.result = known
        """The diagnosis once made."""
        self.timeline: list[str] = timeline or []
        """The job's phases in words, each with its time and cost (`tui.logs.timeline`)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Doctor: {escape(self.row.handle.name)}", classes="question")
            with VerticalScroll():
                yield Static(
                    f"Reading every log of {escape(self.row.handle.name)}…", id="doctor-text"
                )
            yield Static("escape: close", classes="hint")

    def on_mount(self) -> None:
        if self.result is not None:
            self._show(self.result)
            if self.timeline and self.row.state.is_terminal:
                return  # an ended job's answer and phases, read before: not read again
        # the phases need the logs (and a running job's move on): read, then shown whole
        self.run_worker(self._diagnose, group="doctor", exclusive=True, exit_on_error=False)

    async def _diagnose(self) -> None:
        state = self.row.state.value
        seen: dict[str, Any] = {}
        try:
            found = await diagnosis(
                self.row.backend,
                self.row.handle,
                state == "Failed",
                succeeded=state == "Completed",
                running=state == "Running",
                seen=seen,
            )
        except Exception as err:  # a BackendError's one line, a network failure
            text = self.query_one("#doctor-text", Static)
            text.update(f"Could not read the job's logs: {escape(str(err))}")
            text.add_class("-error")
            return
        self.result = found
        self.timeline = _timeline(seen, found, self.row.hourly)
        self._show(found)

    def _show(self, found: Any) -> None:
        head, *rest = found.paragraph().split("\n")
        text = f"[b]{escape(head)}[/b]"
        if rest:
            text += "\n" + "\n".join(escape(line) for line in rest)
        if self.timeline:
            text += "\n\n[b]Where its time went[/b]\n" + "\n".join(map(escape, self.timeline))
        if not self.row.state.is_terminal:
            text += f"\n\n[$text-muted]{escape(self.row.handle.name)} is still running: this "
            text += "is what its logs show so far.[/]"
        self.query_one("#doctor-text", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(self.result)


def _timeline(seen: dict[str, Any], found: Any, hourly: float | None) -> list[str]:
    """The job's phases in words (`describe`), from what `diagnosis` read; [] without a status."""
    from datetime import datetime, timezone

    from tui.logs.timeline import describe, of_job

    if seen.get("status") is None:
        return []
    lines = (line for text in seen.get("logs", {}).values() for line in text.splitlines())
    local = bool(seen.get("local"))
    phases = of_job(seen["status"], lines, found, local, datetime.now(timezone.utc))
    return describe(phases, hourly)
