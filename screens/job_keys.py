"""`JobKeys`: the job screen's keys and what each does — follow, wrap, search and filter (the
prompt at the bottom), matches and errors, ranks and logs, the metrics pane, every rank's stack
(the stacks panel), save, cancel, the doctor's answer and where the job's time went (`t`),
reproduce an Azure ML job here (`R`), back.

`JobScreen` is built on it and brings the job, its logs and the view the keys act on; the keys
follow k9s and less (`/` search, `n`/`N`, `f` follow, `[`/`]` rank).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.binding import Binding
from textual.geometry import Offset
from textual.screen import Screen
from textual.widgets import Input, Label
from textual.worker import get_current_worker

from tui.core.words import counted
from tui.logs.names import ordered
from widgets.log_view import LogView
from widgets.stacks_panel import StacksPanel, stacks_text

if TYPE_CHECKING:
    from screens.job_metrics import JobMetrics
    from tui.backends.base import Backend, JobHandle, JobStatus
    from tui.logs.names import RankLog
    from tui.logs.sources import LogSource

BACKEND_WORDS = {"azureml": "Azure ML", "local": "this machine"}
"""A backend's name in the stacks panel's words."""
_RANK = Binding.Group("Rank", compact=True)
_MATCH = Binding.Group("Match", compact=True)
_ERROR = Binding.Group("Error", compact=True)


class JobKeys(Screen[None]):
    """The keys of the job screen; `JobScreen` supplies the job, its logs and `open_log()`."""

    BINDINGS: ClassVar = [
        # In the footer's order, what matters most for a job first (a narrow footer cuts the
        # rest at the right; every key is in the help and the palette)
        Binding("escape", "back", "Back"),
        Binding("c", "cancel_job", "Cancel"),
        Binding("S", "stacks", "Stacks"),  # a hang's answer
        Binding("m", "toggle_metrics", "Metrics"),
        Binding("f", "toggle_follow", "Follow"),
        Binding("slash", "ask('search')", "Search"),
        Binding("n", "next_match(True)", "Next match", group=_MATCH),
        Binding("N", "next_match(False)", "Previous match", group=_MATCH),
        Binding("e", "next_error(True)", "Next error", group=_ERROR),
        Binding("E", "next_error(False)", "Previous error", group=_ERROR),
        Binding("left_square_bracket", "step_rank(-1)", "Previous rank", group=_RANK),
        Binding("right_square_bracket", "step_rank(1)", "Next rank", group=_RANK),
        Binding("l", "pick_log", "Logs"),
        Binding("ampersand", "ask('filter')", "Filter"),
        Binding("s", "save", "Save"),
        Binding("w", "toggle_wrap", "Wrap"),
        # less and k9s habits: q leaves, j/k a line, g/G the ends, ctrl+d/u half a page
        Binding("q", "leave", "Leave", show=False),
        Binding("j,down", "scroll(1)", "Line down", show=False),
        Binding("k,up", "scroll(-1)", "Line up", show=False),
        Binding("ctrl+d", "scroll(0.5)", "Half a page down", show=False),
        Binding("ctrl+u", "scroll(-0.5)", "Half a page up", show=False),
        Binding("pagedown", "scroll(1.0)", "Page down", show=False),
        Binding("pageup", "scroll(-1.0)", "Page up", show=False),
        Binding("g", "top", "Top", show=False),
        Binding("G", "bottom", "End (and follow)", show=False),
        Binding("R", "reproduce", "Reproduce here", show=False),  # an Azure ML job, small
        Binding("t", "timeline", "Doctor & timeline", show=False),  # who failed, where time went
    ]

    # What the keys act on, set by `JobScreen`.
    backend: Backend
    handle: JobHandle
    status: JobStatus | None
    sources: dict[str, LogSource]
    log_name: str | None
    saved_path: Path | None
    metrics: JobMetrics

    def __init__(self) -> None:
        super().__init__()
        self._asking = "search"
        self._cursor_before = Offset(0, 0)

    def open_log(self, name: str) -> None:
        raise NotImplementedError

    def show_status(self) -> None:
        raise NotImplementedError

    def _rank_logs(self) -> list[RankLog]:
        raise NotImplementedError

    def action_toggle_follow(self) -> None:
        view = self.query_one(LogView)
        view.follow = not view.follow

    def action_toggle_metrics(self) -> None:
        """Show or hide the metrics pane (progress, chart, ranks' speeds)."""
        self.metrics.toggle()

    # ---- every rank's stack ----------------------------------------------------------------

    def action_stacks(self) -> None:
        """Collect every rank's Python stack (a local job's ranks are asked; they answer within
        seconds) and show them grouped, the odd ones out first, in the stacks panel."""
        panel = self.query_one(StacksPanel)
        panel.show("[b]Stacks:[/b] collecting every rank's stack…")
        self._collect_stacks(panel)

    @work(thread=True, exclusive=True, group="job-stacks", exit_on_error=False)
    def _collect_stacks(self, panel: StacksPanel) -> None:
        from tui.backends.stacks import collect

        can_ask = getattr(self.backend, "ask_stacks", None) is not None
        cannot_ask = None if can_ask else BACKEND_WORDS.get(self.handle.backend, "this backend")
        try:
            text = stacks_text(collect(self.backend, self.handle), cannot_ask)
        except Exception as err:  # said in the panel; the job and the screen go on
            text = f"[b]Stacks:[/b] could not collect them: {type(err).__name__}: {err}"
        if not get_current_worker().is_cancelled:
            with contextlib.suppress(RuntimeError):  # the app was closed meanwhile
                self.app.call_from_thread(panel.show, text)

    # ---- moving in the log, from wherever the focus is ---------------------------------------

    def action_scroll(self, amount: float) -> None:
        """A line (an int) or that many pages (a float) down; up for a negative amount."""
        view = self.query_one(LogView)
        rows = amount
        if isinstance(amount, float):
            rows = round(amount * max(1, view.scrollable_content_region.height - 1))
        if rows < 0 and view.scroll_y > 0:
            view.follow = False  # scrolling up pauses following, as the view's own keys do
        view.scroll_to(y=view.scroll_y + rows, animate=False, immediate=True)

    def action_top(self) -> None:
        self.query_one(LogView).action_top()

    def action_bottom(self) -> None:
        self.query_one(LogView).action_follow()

    def action_toggle_wrap(self) -> None:
        view = self.query_one(LogView)
        view.wrap = not view.wrap

    # ---- the prompt: search and filter ----------------------------------------------------

    def action_ask(self, what: str) -> None:
        """Open the prompt at the bottom for a search (`/`) or a filter (`&`)."""
        self._asking = what
        view = self.query_one(LogView)
        query = self.query_one("#query", Input)
        label = self.query_one("#prompt-label", Label)
        if what == "search":
            label.update("search /")
            query.placeholder = "text to find (a capital letter makes it case-sensitive)"
            query.value = view.search_query or ""
        else:
            label.update("filter &")
            query.placeholder = "show only lines containing this (empty: every line)"
            query.value = view.filter_query or ""
        self.query_one("#prompt").add_class("-shown")
        self._cursor_before = self.app.cursor_position
        query.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._close_prompt()
        view = self.query_one(LogView)
        if self._asking == "search":
            view.search(event.value)
            if event.value and view.match_count == 0:
                self.notify(f"{event.value!r} is not in this log", severity="warning")
        else:
            view.set_filter(event.value or None)
        self.show_status()

    def _close_prompt(self) -> None:
        self.query_one("#prompt").remove_class("-shown")
        self.query_one(LogView).focus()
        # The Input put the terminal's own cursor at its caret (for input methods) and leaves it
        # there when it loses focus: in the footer once the prompt is gone, where a terminal that
        # draws a hidden cursor anyway shows a stray block. It goes back where it was.
        self.app.cursor_position = self._cursor_before

    # ---- moving: matches, errors, ranks, logs ---------------------------------------------

    def action_next_match(self, forward: bool) -> None:
        view = self.query_one(LogView)
        if not view.search_query:
            self.notify("No search yet: press / to search", severity="warning")
        elif not view.next_match(forward):
            self.notify(f"{view.search_query!r} is not in this log", severity="warning")
        self.show_status()

    def action_next_error(self, forward: bool) -> None:
        if not self.query_one(LogView).next_error(forward):
            self.notify("No errors in this log (so far)")
        self.show_status()

    def action_step_rank(self, step: int) -> None:
        ranks = [r.name for r in self._rank_logs()]
        if not ranks:
            self.notify("No rank logs yet", severity="warning")
            return
        at = ranks.index(self.log_name) if self.log_name in ranks else (-1 if step > 0 else 0)
        self.open_log(ranks[(at + step) % len(ranks)])

    def action_pick_log(self) -> None:
        from screens.job_dialogs import LogPicker

        def chosen(name: str | None) -> None:
            if name and name != self.log_name:
                self.open_log(name)

        picker = LogPicker(ordered(self.sources), self._rank_logs(), self.log_name)
        self.app.push_screen(picker, chosen)

    # ---- save, cancel, reproduce, back ----------------------------------------------------

    def action_save(self) -> None:
        if self.log_name is None:
            self.notify("No log to save yet", severity="warning")
            return
        view = self.query_one(LogView)
        path = _unique(Path.cwd() / f"{self.handle.name}-{Path(self.log_name).stem}.log")
        self._save(view.saver(), path, view.line_count)

    @work(thread=True, group="job-save", exit_on_error=False)
    def _save(self, saver: Any, path: Path, lines: int) -> None:
        try:
            saver(path)
        except OSError as err:
            self.app.call_from_thread(
                self.notify, f"Could not save {path}: {err.strerror}", severity="error"
            )
            return
        self.app.call_from_thread(self._saved, path, lines)

    def _saved(self, path: Path, lines: int) -> None:
        self.saved_path = path
        self.notify(f"Saved {counted(lines, 'line')} to {path}", timeout=8)
        self.show_status()

    def action_cancel_job(self) -> None:
        from screens.job_dialogs import ConfirmScreen

        if self.status is not None and self.status.is_terminal:
            self.notify(f"{self.handle.name} has already ended: {self.status.summary()}")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.notify(f"Canceling {self.handle.name}…")
                self._cancel_job()

        question = f"Cancel {self.handle.name}?"
        detail = "Every process of the job is stopped. The logs so far stay."
        self.app.push_screen(ConfirmScreen(question, detail, yes="Cancel job"), answered)

    @work(thread=True, exclusive=True, group="job-cancel", exit_on_error=False)
    def _cancel_job(self) -> None:
        try:
            self.backend.cancel(self.handle)
        except Exception as err:
            self.app.call_from_thread(
                self.notify, f"Cancel failed: {err}", severity="error", timeout=10
            )

    def action_timeline(self) -> None:
        """The doctor's answer for this job and where its time went, phase by phase, with what
        each cost at the plan's price (`screens.doctor`, as the jobs list's `d` opens it)."""
        from screens.doctor import DoctorScreen
        from screens.jobs_rows import JobRow
        from tui.backends.base import JobState

        status = self.status
        price = getattr(self, "price", None)
        row = JobRow(
            self.backend,
            self.handle,
            "here" if self.backend.name == "local" else "azure",
            status.state if status is not None else JobState.RUNNING,
            "",
            getattr(status, "created_at", None),
            "",
            self.handle.name,
            hourly=price.dedicated if price is not None else None,
        )
        self.app.push_screen(DoctorScreen(row))

    def action_reproduce(self) -> None:
        """Run this Azure ML job again here, small (the app opens `screens.reproduce`)."""
        self.app.reproduce(self.backend, self.handle)  # type: ignore[attr-defined]

    async def action_back(self) -> None:
        """Close the prompt, else the stacks panel, else drop the filter, else the search, else
        leave the screen."""
        view = self.query_one(LogView)
        if self.query_one("#prompt").has_class("-shown"):
            self._close_prompt()
        elif self.query_one(StacksPanel).close():
            self.workers.cancel_group(self, "job-stacks")
        elif view.filter_query:
            view.set_filter(None)
        elif view.search_query:
            view.search("")
        else:
            await self.action_leave()
            return
        self.show_status()

    async def action_leave(self) -> None:
        """Back where the screen was opened from; the last screen quits, asking first only when
        quitting would stop a job this app started (ctrl+q's question)."""
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            await self.app.run_action("quit")


def _unique(path: Path) -> Path:
    """`path`, or `name-1.log`, `name-2.log`, … if it exists."""
    candidate, n = path, 0
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate
