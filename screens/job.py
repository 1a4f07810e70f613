"""`JobScreen`: one job — where it stands, and one of its logs, live.

Pushed after Submit, and opened by `dtrain-tui logs NAME`. The status comes from a thread
worker (backend calls block: disk, processes, the Azure SDK) every `status_interval` seconds;
the log from an exclusive async worker running a `LogFollower` over the backend's source. When
the job ends the follower makes its final read; a failure switches to the failing rank's log
and goes to its first error. Leaving the screen cancels both workers and deletes the spool.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import aclosing
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.geometry import Offset
from textual.markup import escape
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, Static
from textual.worker import Worker, WorkerState, get_current_worker

from screens.job_head import fill_head, tail_start
from screens.job_metrics import REDRAW_EVERY, JobMetrics
from screens.job_ranks import JobRanks
from tui.backends.base import JobHandle, JobState, JobStatus
from tui.logs.follower import FollowerState, LogFollower, Timing
from tui.logs.names import default_log, label, ordered, rank_logs
from widgets.log_view import LogView
from widgets.metrics_chart import MetricsPane
from widgets.rank_strip import RankStrip

if TYPE_CHECKING:
    from tui.backends.base import Backend
    from tui.logs.sources import LogSource

UI_TIMING = Timing(max_read=1 << 20)
"""The follower's defaults, but at most 1 MB per read: a backlog arrives in batches the view
takes in ~10 ms each, so the screen stays responsive while it catches up."""
SOURCES_EVERY = 10
"""Look for new logs (system logs, late ranks) every this many status polls."""
JUMP_TRIES = 50
"""Refreshes to wait for the jump to a failure's first error to show (each one tries again)."""
_RANK = Binding.Group("Rank", compact=True)
_MATCH = Binding.Group("Match", compact=True)
_ERROR = Binding.Group("Error", compact=True)
_STATE_COLOR = {
    JobState.QUEUED: "$text-muted",
    JobState.STARTING: "$warning",
    JobState.RUNNING: "$success",
    JobState.COMPLETED: "$success",
    JobState.FAILED: "$error",
    JobState.CANCELED: "$warning",
    JobState.UNKNOWN: "$text-muted",
}


# Seconds between status polls by backend: a local status is a file read; an Azure ML one is two
# ARM / Run History requests, and ARM throttles clients that poll every second.
STATUS_INTERVAL = {"local": 1.0, "azureml": 5.0}


class JobScreen(Screen[None]):
    """A job's status line and one of its logs (rank 0's first), followed live."""

    DEFAULT_CSS = """
    JobScreen #job-status { height: auto; padding: 0 1; background: $panel; }
    JobScreen #job-outcome { height: auto; padding: 0 1; display: none; text-style: bold; }
    JobScreen #job-outcome.-shown { display: block; }
    JobScreen #job-doctor { height: auto; padding: 0 1; display: none; }
    JobScreen #job-doctor.-shown { display: block; }
    JobScreen RankStrip { display: none; }
    JobScreen RankStrip.-shown { display: block; }
    JobScreen #prompt { height: 1; display: none; background: $panel; }
    JobScreen #prompt.-shown { display: block; }
    JobScreen #prompt-label { width: auto; padding: 0 1; color: $accent; text-style: bold; }
    JobScreen #query { width: 1fr; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("f", "toggle_follow", "Follow"),
        Binding("slash", "ask('search')", "Search"),
        Binding("n", "next_match(True)", "Next match", group=_MATCH),
        Binding("N", "next_match(False)", "Previous match", group=_MATCH),
        Binding("ampersand", "ask('filter')", "Filter"),
        Binding("e", "next_error(True)", "Next error", group=_ERROR),
        Binding("E", "next_error(False)", "Previous error", group=_ERROR),
        Binding("left_square_bracket", "step_rank(-1)", "Previous rank", group=_RANK),
        Binding("right_square_bracket", "step_rank(1)", "Next rank", group=_RANK),
        Binding("l", "pick_log", "Logs"),
        Binding("w", "toggle_wrap", "Wrap"),
        Binding("m", "toggle_metrics", "Metrics"),
        Binding("s", "save", "Save"),
        Binding("c", "cancel_job", "Cancel"),
    ]

    class StatusReceived(Message):
        """The status poller read the job's status (and, now and then, its logs)."""

        def __init__(self, status: JobStatus, sources: dict[str, LogSource]) -> None:
            super().__init__()
            self.status = status
            self.sources = sources

    class StatusFailed(Message):
        """Asking the backend for the status failed; the poller keeps trying."""

        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

    def __init__(
        self,
        backend: Backend,
        handle: JobHandle,
        *,
        log: str | None = None,
        status_interval: float | None = None,
        timing: Timing | None = None,
        window: int = 50_000,
        spool_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.backend = backend
        self.handle = handle
        self.status_interval = status_interval or STATUS_INTERVAL.get(handle.backend, 1.0)
        """Seconds between status polls (tests keep it at 0.1 s or more)."""
        self.timing = timing or UI_TIMING
        """How the log follower polls."""
        self.status: JobStatus | None = None
        """The latest status; None before the first poll."""
        self.sources: dict[str, LogSource] = {}
        """Every log found so far, by its Azure ML name."""
        self.log_name: str | None = None
        """The name of the log on display."""
        self.follower: LogFollower | None = None
        """The follower of that log (its `state` feeds the status line)."""
        self.saved_path: Path | None = None
        """Where `s` last saved the log."""
        self._wanted_log = log  # asked for by name: a failure elsewhere does not switch away
        self._window, self._spool_dir = window, spool_dir
        self._done = asyncio.Event()  # set once the job is terminal: followers finish up
        self._ended = False
        self._jump_to_error = False
        self._jump_tries = 0
        self._generation = 0
        self._problem: str | None = None
        self._asking = "search"
        self._cursor_before = Offset(0, 0)
        self.metrics = JobMetrics(self)
        self.ranks = JobRanks(self)
        """Every rank's log growth (the strip), and the doctor's diagnosis of a failure."""
        self.head_fill: tuple[int, int] | None = None
        """While a log opened at its end fills in behind: (bytes read, bytes before the tail)."""
        """Training progress: the shown log's series, the ranks' speeds (`m` shows them)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("", id="job-status")
        yield Static("", id="job-outcome")
        yield Static("", id="job-doctor")
        yield RankStrip(id="ranks")
        yield MetricsPane(id="metrics")
        yield LogView(window=self._window, spool_dir=self._spool_dir, id="log")
        with Horizontal(id="prompt"):
            yield Label("", id="prompt-label")
            yield Input(id="query", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.handle.backend} job {self.handle.name}"
        view = self.query_one(LogView)
        view.focus()
        self.watch(view, "follow", lambda _: self.show_status(), init=False)
        self.watch(view, "wrap", lambda _: self.show_status(), init=False)
        self.set_interval(1.0, self.show_status)  # elapsed time and "last data" age tick
        self.set_interval(REDRAW_EVERY, self.metrics.draw)
        self.show_status()
        self._poll_status()
        self.ranks.start()

    # ---- the status -----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="job-status", exit_on_error=False)
    def _poll_status(self) -> None:
        worker = get_current_worker()
        known: set[str] = set()
        polls = 0
        while not worker.is_cancelled:
            try:
                status = self.backend.status(self.handle)
                new: dict[str, LogSource] = {}
                if not rank_logs(known) or polls % SOURCES_EVERY == 0 or status.is_terminal:
                    found = self.backend.log_sources(self.handle)
                    new = {name: src for name, src in found.items() if name not in known}
                    known.update(new)
            except Exception as err:  # shown on the status line; the poller keeps going
                self.post_message(self.StatusFailed(f"{type(err).__name__}: {err}"))
            else:
                self.post_message(self.StatusReceived(status, new))
                if status.is_terminal:
                    return
            polls += 1
            deadline = time.monotonic() + self.status_interval
            while not worker.is_cancelled and time.monotonic() < deadline:
                time.sleep(min(0.05, self.status_interval))

    def on_job_screen_status_received(self, message: StatusReceived) -> None:
        self.status, self._problem = message.status, None
        self.sources.update(message.sources)
        if self.log_name is None:
            wanted = self._wanted_log if self._wanted_log in self.sources else None
            first = wanted or default_log(self.sources)
            if first is not None:
                self.open_log(first)
        if message.status.is_terminal and not self._ended:
            self._ended = True
            self._done.set()
            self._job_ended(message.status)
        self.show_status()

    def on_job_screen_status_failed(self, message: StatusFailed) -> None:
        self._problem = f"status: {message.error}"
        self.show_status()

    def _job_ended(self, status: JobStatus) -> None:
        self.ranks.job_ended(status)
        color = _STATE_COLOR[status.state]
        text = f"[{color}]{escape(status.summary())}[/]"
        if status.duration is not None:
            text += f" after {_clock(status.duration)}"
        failed = status.failed_log if status.failed_log in self.sources else None
        if status.state is JobState.FAILED and self._wanted_log is not None and failed:
            # The user asked for this log by name (`logs --rank N`): say where to look instead.
            if failed != self.log_name:
                text += f" · its log: {escape(self._label(failed))} (l)"
        elif status.state is JobState.FAILED:
            target = failed or self.log_name
            if target is not None:
                if target != self.log_name:
                    self.open_log(target)
                text += f" · showing {escape(self._label(target))}, at its first error"
                self._jump_to_error, self._jump_tries = True, 0
                self._go_to_first_error()
        outcome = self.query_one("#job-outcome", Static)
        outcome.update(text)
        outcome.add_class("-shown")

    def show_status(self) -> None:
        """Redraw the status lines from the job status, the follower and the view."""
        if not self.is_mounted:
            return
        self.query_one("#job-status", Static).update(self._status_text())

    def _status_text(self) -> str:
        h, status = self.handle, self.status
        parts = [f"[b]{escape(h.backend)}[/b]", f"[b]{escape(h.name)}[/b]"]
        if status is None:
            parts.append("[$text-muted]asking for the status…[/]")
        else:
            shown = status.state
            if shown in (JobState.QUEUED, JobState.STARTING) and self._log_has_data():
                shown = JobState.RUNNING  # its processes write logs: the backend lags behind
            state = f"[{_STATE_COLOR[shown]}]{shown.value}[/]"
            elapsed = status.duration
            if elapsed is None and status.created_at is not None:
                created = status.created_at
                elapsed = (datetime.now(created.tzinfo) - created).total_seconds()
            parts.append(f"{state} {_clock(elapsed)}" if elapsed is not None else state)
            if not status.is_terminal and status.message:
                # Azure's word when it says more: Preparing, NotResponding, Paused …
                parts.append(f"[$text-muted]{escape(status.message)}[/]")
        if h.backend == "azureml" and h.location:
            url = h.location.replace('"', "%22")
            parts.append(f'[link="{url}"]{escape(url)}[/link]')
        if self._problem:
            parts.append(f"[$error]{escape(self._problem)}[/]")
        return " · ".join(parts) + "\n" + self._log_text()

    def _log_has_data(self) -> bool:
        return self.follower is not None and self.follower.state.bytes_received > 0

    def _log_text(self) -> str:
        if self.log_name is None:
            return "[$text-muted]waiting for the job's logs…[/]"
        view = self.query_one(LogView)
        state = self.follower.state if self.follower else FollowerState(self.log_name)
        parts = [
            f"[b]{escape(self._label(self.log_name))}[/b]",
            f"{_size(state.bytes_received)} · {state.lines:,} lines",
        ]
        age = state.seconds_since_data()
        if age is not None and not (self.status is not None and self.status.is_terminal):
            # An ended job's log gets no more data: how long ago it was read says nothing.
            parts.append(f"data {_ago(age)} ago")
        parts.append(_phase(state))
        if state.rewrites:
            parts.append("[$warning]rewritten at the source: read again from the start[/]")
        if self.head_fill is not None:
            done, end = self.head_fill
            parts.append(f"[$accent]opened at its end · reading the rest {100 * done // end}%[/]")
        parts.append("[$success]FOLLOW[/]" if view.follow else "[$warning]PAUSED[/]")
        if view.wrap:
            parts.append("wrap")
        if view.search_query:
            count = view.match_count
            where = f"{view.match_number or '-'}/{count}" if count is not None else "searching…"
            parts.append(f"/{escape(view.search_query)} {where}")
        if view.filter_query:
            parts.append(f"&{escape(view.filter_query)}: {view.shown_count:,} lines")
        if view.error_count:
            n = view.error_count
            parts.append(f"[$error]{n} error{'s' if n > 1 else ''}[/]")
        if self.saved_path:
            parts.append(f"saved {escape(self.saved_path.name)}")
        return " · ".join(parts)

    # ---- the log --------------------------------------------------------------------------

    def open_log(self, name: str) -> None:
        """Show log `name` from its start and follow it (the previous follower stops)."""
        source = self.sources.get(name)
        if source is None:
            self.notify(f"{self.handle.name} has no log {name}", severity="warning")
            return
        self.log_name = name
        self._generation += 1
        self.follower = LogFollower(source, done=self._done, timing=self.timing)
        view = self.query_one(LogView)
        search, only = view.search_query, view.filter_query
        view.clear()
        # The same question of the next rank's log: the search and filter carry over.
        if search:
            view.search(search)
        if only:
            view.set_filter(only)
        self.metrics.reset()
        self._follow(self.follower, self._generation)
        self.show_status()

    @work(exclusive=True, group="job-follow", exit_on_error=False)
    async def _follow(self, follower: LogFollower, generation: int) -> None:
        view = self.query_one(LogView)
        shown = 0.0
        start = await tail_start(follower.source)  # a large log opens at its end
        if start and generation == self._generation:
            follower = self.follower = LogFollower(
                follower.source, done=self._done, timing=self.timing, offset=start
            )
            self._fill_head(follower.source, start, generation)
        async with aclosing(follower.updates()) as updates:
            async for update in updates:
                if generation != self._generation:
                    return  # another log was opened meanwhile
                if update.restart:
                    view.clear()  # the log was rewritten: never mix its old and new text
                    self.metrics.reset()
                    self.workers.cancel_group(self, "job-head")  # it is read from 0 again
                    self.head_fill = None
                view.append(update.lines)
                self.metrics.take(update.lines, update.partial)
                view.set_partial(update.partial)
                if self._jump_to_error:
                    self._go_to_first_error()
                now = time.monotonic()
                if now - shown > 0.25 or update.state.phase != "following":
                    self.show_status()  # a backlog brings many batches a second: not each
                    shown = now
                # A local read never waits, so while a backlog streams in, let the screen
                # draw and take keys between batches.
                await asyncio.sleep(0)
        self.show_status()

    @work(exclusive=True, group="job-head", exit_on_error=False)
    async def _fill_head(self, source: LogSource, end: int, generation: int) -> None:
        """Read the log before its tail into a store the view then puts in front."""
        self.head_fill = (0, end)

        def progress(done: int) -> None:
            self.head_fill = (done, end)

        head, tracker = await fill_head(
            source, end, window=self._window, spool_dir=self._spool_dir, progress=progress
        )
        if generation != self._generation:
            head.close()
            return
        self.query_one(LogView).take_head(head)
        self.metrics.head_read(tracker)
        self.head_fill = None
        self.show_status()

    def on_rank_strip_rank_chosen(self, message: RankStrip.RankChosen) -> None:
        """Enter on a rank in the strip: show its log."""
        name = next((r.name for r in self._rank_logs() if r.rank == message.rank), None)
        if name is not None and name != self.log_name:
            self.open_log(name)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            error = event.worker.error
            self._problem = f"{event.worker.group}: {type(error).__name__}: {error}"
            self.show_status()

    def on_log_view_scanned(self, event: LogView.Scanned) -> None:
        self.show_status()

    def _go_to_first_error(self) -> None:
        """Jump to the first error once the log has one, and again after each refresh until
        the error line is on screen (a jump made before the view's layout can be lost)."""
        view = self.query_one(LogView)
        if not self._jump_to_error or not view.first_error():
            return  # not asked, or no error yet: the next batch of lines tries again
        if view.on_screen(view.store.error_starts[0]):
            self._jump_to_error = False
        elif self._jump_tries < JUMP_TRIES:
            self._jump_tries += 1
            self.call_after_refresh(self._go_to_first_error)

    def _rank_logs(self):
        return rank_logs(self.sources)

    def _label(self, name: str) -> str:
        return label(name, self._rank_logs())

    # ---- keys -----------------------------------------------------------------------------

    def action_toggle_follow(self) -> None:
        view = self.query_one(LogView)
        view.follow = not view.follow

    def action_toggle_metrics(self) -> None:
        """Show or hide the metrics pane (progress, chart, ranks' speeds)."""
        self.metrics.toggle()

    def action_toggle_wrap(self) -> None:
        view = self.query_one(LogView)
        view.wrap = not view.wrap

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
        self.notify(f"Saved {lines:,} lines to {path}", timeout=8)
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

    def action_back(self) -> None:
        """Close the prompt, else drop the filter, else the search, else leave the screen."""
        view = self.query_one(LogView)
        if self.query_one("#prompt").has_class("-shown"):
            self._close_prompt()
        elif view.filter_query:
            view.set_filter(None)
        elif view.search_query:
            view.search("")
        elif len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()
        self.show_status()


def _phase(state: FollowerState) -> str:
    if state.phase == "retrying":
        wait = f" in {state.retry_in:.0f} s" if state.retry_in is not None else ""
        error = escape(state.last_error or "")
        return f"[$warning]retrying{wait} (attempt {state.retries + 1}): {error}[/]"
    if state.phase == "failed":
        return f"[$error]gave up: {escape(state.last_error or '')}[/]"
    return {
        "waiting": "[$text-muted]waiting for the first bytes[/]",
        "following": "receiving",
        "idle": "idle",
        "finished": "complete",
    }[state.phase]


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _ago(seconds: float) -> str:
    if seconds < 60:
        return f"{int(seconds)} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    return f"{seconds / 3600:.1f} h"


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:,} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def _unique(path: Path) -> Path:
    """`path`, or `name-1.log`, `name-2.log`, … if it exists."""
    candidate, n = path, 0
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate
