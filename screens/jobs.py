"""`JobsScreen`: every job — this machine's and the Azure ML workspace's — live, in k9s's manner.

One row per job: where it runs, its name, state, age, how far (step of total), how long (ETA),
how much (cost so far and to finish), nodes × processes per node, script, and for a failed job
the doctor's one-line cause (else what the job is, or since when a stalled one has not moved);
screens/jobs_columns.py says which columns fit. Enter opens the job screen, `d` the doctor's
whole answer, `c` cancels (after asking), `/` filters as you type, `R` runs an Azure ML job
again here, small (screens/reproduce.py). A thread worker lists local jobs every `interval`
seconds (file reads) and the workspace's every `azure_interval` (one `jobs.list`; ARM throttles
clients that ask often); `r` asks both now.
The rows are shown as soon as listed (with each job's progress as last read), then again once
each log's end is read, if that shows anything new; a refresh redraws only the cells it changed.
A failed job here is diagnosed in the background; a failed Azure job when its row is chosen
(its logs are downloads).
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.markup import escape
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, Label, Static
from textual.worker import get_current_worker

from screens.jobs_columns import COLUMNS, fit, row_facts
from screens.jobs_progress import ProgressReader
from screens.jobs_rows import (
    JobRow,
    Known,
    azure_rows,
    diagnosis,
    in_app_words,
    last_progress,
    local_rows,
    one_line,
    progress_changed,
    read_progress,
)
from screens.jobs_table import JobsTable
from tui.backends.base import JobState
from tui.core.words import plural
from widgets.key_footer import KeyFooter

DIAGNOSING = "reading its logs…"


class JobsScreen(Screen[None]):
    """Local and Azure ML jobs together, refreshed live."""

    DEFAULT_CSS = """
    JobsScreen #jobs-status { height: auto; padding: 0 1; background: $panel; }
    JobsScreen #jobs-note {
        height: auto; padding: 0 1; color: $text-muted; display: none;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    JobsScreen #jobs-note.-shown { display: block; }
    JobsScreen JobsTable { height: 1fr; }
    JobsScreen #jobs-prompt { height: 1; display: none; background: $panel; }
    JobsScreen #jobs-prompt.-shown { display: block; }
    JobsScreen #jobs-prompt Label { width: auto; padding: 0 1; color: $accent; text-style: bold; }
    JobsScreen #jobs-filter { width: 1fr; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("d", "doctor", "Doctor"),
        Binding("c", "cancel_job", "Cancel"),
        Binding("slash", "filter", "Filter"),
        Binding("r", "reload", "Refresh"),
        Binding("R", "reproduce", "Reproduce"),
        Binding("q", "leave", "Leave", show=False),
    ]
    AUTO_FOCUS = "JobsTable"

    class Listed(Message):
        """The poller read the jobs: `local`/`azure` are None when not asked this time."""

        def __init__(
            self, local: list[JobRow] | None, azure: list[JobRow] | None, notes: dict[str, str]
        ) -> None:
            super().__init__()
            self.local, self.azure, self.notes = local, azure, notes

    def __init__(self, interval: float = 2.0, azure_interval: float = 30.0) -> None:
        super().__init__()
        self.interval = interval
        """Seconds between listings of this machine's jobs."""
        self.azure_interval = azure_interval
        """Seconds between listings of the workspace's jobs."""
        self.rows: dict[str, JobRow] = {}
        """Every job listed, by `JobRow.key`, newest first."""
        self.causes: dict[str, str] = {}
        """The doctor's one line for each failed job diagnosed so far (or DIAGNOSING)."""
        self.diagnoses: dict[str, Any] = {}
        self.timelines: dict[str, list[str]] = {}
        """Where each ended job's time went, as the doctor screen said it (read once)."""
        self.filter = ""
        """Rows shown contain this (any column, any case); "" shows all."""
        self._local: list[JobRow] = []
        self._azure: list[JobRow] = []
        self._notes: dict[str, str] = {}
        self._wake = threading.Event()
        self._azure_now = False
        self._shape_cache: Known = {}
        self._progress = ProgressReader()
        """Each job's log as read so far (only what it gains is read again)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("[$text-muted]listing jobs…[/]", id="jobs-status")
        yield Static("", id="jobs-note")
        table = JobsTable(id="jobs", cursor_type="row", zebra_stripes=True)
        table.add_columns(*COLUMNS)
        yield table
        with Horizontal(id="jobs-prompt"):
            yield Label("filter /")
            yield Input(id="jobs-filter", compact=True, placeholder="show jobs containing this")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "jobs"
        self._doctor_gate = asyncio.Semaphore(2)
        self._poll()

    def on_screen_resume(self) -> None:
        self._wake.set()  # back from a job screen or a dialog: list now

    # ---- listing ----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="jobs-list", exit_on_error=False)
    def _poll(self) -> None:
        worker = get_current_worker()
        backends = getattr(self.app, "backends", {})
        local = azure = None
        last_azure = float("-inf")
        while not worker.is_cancelled:
            if not self.is_current:  # a job screen or a dialog is on top: nothing to draw
                self._wake.wait(self.interval)
                continue
            notes: dict[str, str] = {}
            local_jobs = azure_jobs = None
            try:
                if local is None and "local" in backends:
                    local = backends["local"]()
                if local is not None:
                    local_jobs = last_progress(local_rows(local, self._shape_cache), self._progress)
            except Exception as err:  # a job folder that cannot be read: said, never fatal
                notes["here"] = f"this machine: {err}"
            now = time.monotonic()
            if now - last_azure >= self.azure_interval or self._azure_now:
                last_azure, self._azure_now = now, False
                if "azureml" not in backends:
                    from tui.planning.preflight import extra_packages

                    needs = " ".join(extra_packages("azure")) or "the azure extra"
                    notes["azure"] = f"Azure ML: not installed (it needs {needs})"
                else:
                    try:
                        azure = azure or backends["azureml"]()
                        azure_jobs, left_out = azure_rows(azure)
                        azure_jobs = last_progress(azure_jobs, self._progress)
                        if left_out:
                            notes["azure"] = f"Azure ML: {left_out}"
                    except Exception as err:  # not configured, not signed in: one line
                        notes["azure"] = f"Azure ML: {in_app_words(err)}"
                        azure_jobs = []
            self._wake.clear()
            self.post_message(self.Listed(local_jobs, azure_jobs, notes))
            self._post_progress(local_jobs, azure_jobs, notes)
            self._wake.wait(self.interval)

    def _post_progress(
        self, local: list[JobRow] | None, azure: list[JobRow] | None, notes: dict[str, str]
    ) -> None:
        """Read the listed jobs' progress (their logs' ends: the slow part) and post the rows
        again where any shows otherwise than it was posted."""
        read = [
            None if rows is None else read_progress(rows, self._progress) for rows in (local, azure)
        ]
        if any(
            rows is not None and new is not None and progress_changed(rows, new)
            for rows, new in zip((local, azure), read, strict=True)
        ):
            self.post_message(self.Listed(read[0], read[1], notes))

    def on_jobs_screen_listed(self, message: Listed) -> None:
        if message.local is not None:
            self._local = message.local
            self._notes.pop("here", None)
        if message.azure is not None:
            self._azure = message.azure
            self._notes.pop("azure", None)
        self._notes.update(message.notes)
        rows = sorted(
            self._local + self._azure,
            key=lambda r: r.created_at.timestamp() if r.created_at else 0.0,
            reverse=True,
        )
        self.rows = {row.key: row for row in rows}
        for row in rows:
            if row.where == "here" and row.state is JobState.FAILED:
                self._diagnose(row)
        self.show_rows()

    # ---- drawing ----------------------------------------------------------------------

    def show_rows(self, redraw: bool = False) -> None:
        """Show `rows` and `filter`: only the cells that changed are drawn again, the cursor
        kept on its job (`redraw`: every row again, as after a resize)."""
        table = self.query_one(JobsTable)
        shown = [row for row in self.rows.values() if self._matches(row)]
        facts = [row_facts(row, self._last_column(row)) for row in shown]
        kept, cut = fit(facts, table.scrollable_content_region.width, 2 * table.cell_padding)
        table.show([row.key for row in shown], facts, kept, cut, redraw)
        self._show_status(len(shown))

    def on_resize(self) -> None:
        self.show_rows(redraw=True)  # the last column cut again for the new width

    def _last_column(self, row: JobRow) -> str:
        if row.state is not JobState.FAILED:
            return row.what
        cause = self.causes.get(row.key)
        if cause is not None:
            return cause
        detail = row.status.partition(": ")[2]
        if row.where == "azure":
            return detail or "d: ask the doctor"
        return detail or DIAGNOSING

    def _matches(self, row: JobRow) -> bool:
        if not self.filter:
            return True
        words = (row.where, row.handle.name, row.status, row.shape, row.script, row.what)
        if row.progress is not None:
            words += (row.progress.stall_words(),)
        text = " ".join((*words, self.causes.get(row.key, ""))).lower()
        return self.filter.lower() in text

    def _show_status(self, shown: int) -> None:
        rows = list(self.rows.values())
        here = sum(row.where == "here" for row in rows)
        running = sum(row.state in (JobState.RUNNING, JobState.STARTING) for row in rows)
        parts = [
            f"[b]{here}[/b] {plural(here, 'job')} here",
            f"[b]{len(rows) - here}[/b] on Azure ML",
            f"[$success]{running} running[/]",
        ]
        if self.filter:
            parts.append(f"/{escape(self.filter)}: {shown} shown")
        self.query_one("#jobs-status", Static).update(" · ".join(parts))
        note = self.query_one("#jobs-note", Static)
        if not rows and not self._notes.get("here"):
            hint = "No jobs yet: Submit on the Review step (ctrl+n) starts one."
            notes = [hint, *self._notes.values()]
        else:
            notes = list(self._notes.values())
        note.update("\n".join(escape(n) for n in notes))
        note.set_class(bool(notes), "-shown")

    def current_key(self) -> str | None:
        """The highlighted job's key, or None in an empty table."""
        return self.query_one(JobsTable).current_key()

    def current(self) -> JobRow | None:
        """The highlighted job."""
        key = self.current_key()
        return self.rows.get(key) if key is not None else None

    # ---- the doctor -------------------------------------------------------------------

    def _diagnose(self, row: JobRow) -> None:
        if row.key in self.causes:
            return
        self.causes[row.key] = DIAGNOSING
        self.run_worker(self._diagnosis(row), group="jobs-doctor", exit_on_error=False)

    async def _diagnosis(self, row: JobRow) -> None:
        try:
            async with self._doctor_gate:  # two jobs' logs at a time
                found = await diagnosis(
                    row.backend,
                    row.handle,
                    failed=row.state is JobState.FAILED,
                    succeeded=row.state is JobState.COMPLETED,
                    running=row.state is JobState.RUNNING,
                )
        except Exception as err:  # logs that cannot be read now: said in the row
            self.causes[row.key] = f"the doctor could not read its logs: {err}"
        else:
            self.diagnoses[row.key] = found
            self.causes[row.key] = one_line(found)
        if self.is_mounted:
            self.show_rows()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        row = self.rows.get(event.row_key.value) if event.row_key else None
        if row is not None and row.where == "azure" and row.state is JobState.FAILED:
            self._diagnose(row)

    # ---- keys -------------------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.rows.get(event.row_key.value) if event.row_key else None
        if row is not None:
            self.app.show_job(row.backend, row.handle)  # type: ignore[attr-defined]

    def action_doctor(self) -> None:
        from screens.doctor import DoctorScreen

        row = self.current()
        if row is None:
            self.notify("No job to diagnose", severity="warning")
            return

        screen = DoctorScreen(row, self.diagnoses.get(row.key), self.timelines.get(row.key))

        def keep(found: Any) -> None:
            if screen.timeline and row.state.is_terminal:
                self.timelines[row.key] = screen.timeline
            if found is not None:
                self.diagnoses[row.key] = found
                if row.state is JobState.FAILED:
                    self.causes[row.key] = one_line(found)
                    self.show_rows()

        self.app.push_screen(screen, keep)

    def action_cancel_job(self) -> None:
        from screens.job_dialogs import ConfirmScreen

        row = self.current()
        if row is None:
            self.notify("No job to cancel", severity="warning")
            return
        if row.state.is_terminal:
            self.notify(f"{row.handle.name} has already ended: {row.status}")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.notify(f"Canceling {row.handle.name}…")
                self._cancel(row)

        detail = "Every process of the job is stopped. The logs so far stay."
        self.app.push_screen(
            ConfirmScreen(f"Cancel {row.handle.name}?", detail, yes="Cancel job"), answered
        )

    @work(thread=True, group="jobs-cancel", exit_on_error=False)
    def _cancel(self, row: JobRow) -> None:
        try:
            row.backend.cancel(row.handle)
        except Exception as err:
            self.app.call_from_thread(
                self.notify, f"Cancel failed: {err}", severity="error", timeout=10
            )
        self._azure_now = row.where == "azure"
        self._wake.set()

    def action_reproduce(self) -> None:
        """Run the highlighted Azure ML job again here, small (`screens.reproduce`)."""
        from screens.reproduce import open_reproduction

        row = self.current()
        open_reproduction(self, row.backend if row else None, row.handle if row else None)

    def action_reload(self) -> None:
        self._azure_now = True
        self._wake.set()

    def action_filter(self) -> None:
        """Open the filter prompt; the list narrows as you type."""
        query = self.query_one("#jobs-filter", Input)
        query.value = self.filter
        self.query_one("#jobs-prompt").add_class("-shown")
        query.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.filter = event.value.strip()
        self.show_rows()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._close_prompt()

    def _close_prompt(self) -> None:
        self.query_one("#jobs-prompt").remove_class("-shown")
        self.query_one(JobsTable).focus()

    async def action_back(self) -> None:
        """Close the prompt (dropping its filter), else drop the filter, else leave."""
        if self.query_one("#jobs-prompt").has_class("-shown"):
            self._close_prompt()
            self.filter = ""
            self.show_rows()
        elif self.filter:
            self.filter = ""
            self.show_rows()
        else:
            await self.action_leave()

    async def action_leave(self) -> None:
        """Back where the list was opened from; as the last screen, quit (asking first when
        that would stop a job this app started)."""
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            await self.app.run_action("quit")
