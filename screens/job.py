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
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.markup import escape
from textual.message import Message
from textual.widgets import Header, Input, Label, Static
from textual.worker import Worker, WorkerState, get_current_worker

from screens.job_head import fill_head, head_progress, tail_start
from screens.job_keys import JobKeys
from screens.job_links import JobLinks
from screens.job_metrics import REDRAW_EVERY, JobMetrics
from screens.job_network import JobNetwork
from screens.job_ranks import JobRanks
from screens.job_status import (
    cost_line,
    empty_log_note,
    job_line,
    launcher_log,
    log_line,
    outcome_line,
    path_line,
    poll_status,
    stall_line,
)
from tui.backends.base import JobHandle, JobState, JobStatus
from tui.logs.follower import FollowerState, LogFollower, Timing
from tui.logs.names import default_log, label, rank_logs
from tui.logs.sources import FileSource
from widgets.gpu_panel import GpuPanel
from widgets.key_footer import KeyFooter
from widgets.log_view import LogView
from widgets.metrics_chart import MetricsPane
from widgets.rank_strip import RankStrip
from widgets.stacks_panel import StacksPanel

if TYPE_CHECKING:
    from tui.backends.base import Backend
    from tui.core.prices import PlanPrice
    from tui.logs.sources import LogSource

UI_TIMING = Timing(max_read=1 << 20)
"""The follower's defaults, but at most 1 MB per read: a backlog arrives in batches the view
takes in ~10 ms each, so the screen stays responsive while it catches up."""
JUMP_TRIES = 50
"""Refreshes to wait for the jump to a failure's first error to show (each one tries again)."""


# Seconds between status polls by backend: a local status is a file read; an Azure ML one is two
# ARM / Run History requests, and ARM throttles clients that poll every second.
STATUS_INTERVAL = {"local": 1.0, "azureml": 5.0}


class JobScreen(JobKeys):
    """A job's status line and one of its logs (rank 0's first), followed live.

    Its keys and what they do are `JobKeys`; its status lines are drawn by `job_status`."""

    DEFAULT_CSS = """
    JobScreen #job-status { height: auto; padding: 0 1; background: $panel; }
    JobScreen #job-outcome { height: auto; padding: 0 1; display: none; text-style: bold; }
    JobScreen #job-outcome.-shown { display: block; }
    JobScreen #job-doctor { height: auto; padding: 0 1; display: none; }
    JobScreen #job-doctor.-shown { display: block; }
    JobScreen #job-network { height: auto; padding: 0 1; display: none; color: $text-muted; }
    JobScreen #job-network.-shown { display: block; }
    JobScreen #job-network.-warning { color: $error; background: $error 15%; }
    JobScreen RankStrip { display: none; }
    JobScreen RankStrip.-shown { display: block; }
    JobScreen #prompt { height: 1; display: none; background: $panel; }
    JobScreen #prompt.-shown { display: block; }
    JobScreen #prompt-label { width: auto; padding: 0 1; color: $accent; text-style: bold; }
    JobScreen #query { width: 1fr; }
    """

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
        price: PlanPrice | None = None,
    ) -> None:
        super().__init__()
        self.backend = backend
        self.handle = handle
        self.price = price
        """What the job's nodes cost per hour (a job submitted to Azure ML from this app): the
        status shows the cost so far and, from the ETA, to finish. None: no cost line."""
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
        self._jump_to_error, self._jump_tries = False, 0
        self._generation = 0
        self._problem: str | None = None
        self._first_data_at: datetime | None = None  # the start, as the log first showed it
        self.head_fill: tuple[int, int] | None = None
        """While a log opened at its end fills in behind: (bytes read, bytes before the tail)."""
        hands = (self.run_worker, self._from_thread, lambda: self.is_mounted)
        self._parts(JobLinks(backend, handle, self.sources, *hands))

    def _parts(self, job: JobLinks) -> None:
        """The screen's parts, each given the job and its own widget, not the screen."""
        self.ranks = JobRanks(
            job,
            strip=partial(self.query_one, RankStrip),
            doctor=partial(self.query_one, "#job-doctor", Static),
            gpus=partial(self.query_one, GpuPanel),
            interval=self.status_interval,
        )
        """Every rank's log growth (the strip), and the doctor's diagnosis of a failure."""
        self.metrics = JobMetrics(
            job,
            pane=partial(self.query_one, MetricsPane),
            ended=lambda: self.ranks.watch.ended,
            sizes=self.ranks.sizes,
            speeds=lambda values, slow: self.ranks.strip.set_speeds(values, slow),
        )
        """Training progress: the shown log's series, the ranks' speeds (`m` shows them)."""
        self.network = JobNetwork(
            job,
            line=partial(self.query_one, "#job-network", Static),
            busy=lambda: self.head_fill is not None,
            planned=lambda: getattr(self.app, "spec", None),
        )
        """The network NCCL says it used (its INFO lines), and the fallback-to-sockets warning."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("", id="job-status")
        yield Static("", id="job-outcome")
        yield Static("", id="job-doctor")
        yield Static("", id="job-network")
        yield RankStrip(id="ranks")
        yield GpuPanel(id="gpus")
        yield MetricsPane(id="metrics")
        yield StacksPanel(id="stacks")
        yield LogView(window=self._window, spool_dir=self._spool_dir, id="log")
        with Horizontal(id="prompt"):
            yield Label("", id="prompt-label")
            yield Input(id="query", compact=True)
        yield KeyFooter()

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
        self.metrics.sample_ranks()  # the ranks' speeds, shown in the strip too

    # ---- the status -----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="job-status", exit_on_error=False)
    def _poll_status(self) -> None:
        poll_status(
            self.backend,
            self.handle,
            self.status_interval,
            lambda status, new: self.post_message(self.StatusReceived(status, new)),
            lambda error: self.post_message(self.StatusFailed(error)),
        )

    def on_job_screen_status_received(self, message: StatusReceived) -> None:
        self.status, self._problem = message.status, None
        self.sources.update(message.sources)
        if self.log_name is not None:
            self.network.refresh()  # (the first time once the log's start is known: _follow)
        else:
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
        text = outcome_line(status, self._first_data_at)
        failed = status.failed_log if status.failed_log in self.sources else None
        if status.state is JobState.FAILED and self._wanted_log is not None and failed:
            # The user asked for this log by name (`logs --rank N`): say where to look instead.
            if failed != self.log_name:
                text += f" · its log: {escape(self._label(failed))} (l)"
        elif status.state is JobState.FAILED:
            target = failed or self.log_name
            if target is not None and self.ranks.empty(target):
                text += self._show_launcher(target)
            elif target is not None:
                if target != self.log_name:
                    self.open_log(target)
                text += f" · showing {escape(self._label(target))}, at its first error"
                self._jump_to_error, self._jump_tries = True, 0
                self._go_to_first_error()
        outcome = self.query_one("#job-outcome", Static)
        outcome.update(text)
        outcome.add_class("-shown")

    def _show_launcher(self, empty: str) -> str:
        """The failed rank's log is empty: open the launcher's log, which says how the rank
        ended (followed: its last lines), or say where the evidence is."""
        if (launcher := launcher_log(self.sources)) is not None:
            self.open_log(launcher)
        return empty_log_note(self._label(empty), launcher)

    def show_status(self) -> None:
        """Redraw the status lines from the job status, the follower and the view."""
        if not self.is_mounted:
            return
        self.query_one("#job-status", Static).update(self._status_text())
        self.ranks.on_display(self.log_name, self.follower)  # one size for the log, both places

    def _status_text(self) -> str:
        has_data = self.follower is not None and self.follower.state.bytes_received > 0
        if has_data and self._first_data_at is None:
            self._first_data_at = datetime.now(timezone.utc)
        text = job_line(self.handle, self.status, self._problem, has_data, self._first_data_at)
        cost = cost_line(self.price, self.status, self._first_data_at, self.metrics.tracker)
        if cost is not None:
            text += f"\n{escape(cost)}"
        if stall := stall_line(self.price, self.status, self.metrics.tracker):
            text += f"\n[$warning]{escape(stall)}[/]"
        if self.log_name is None:
            return text + "\n[$text-muted]waiting for the job's logs…[/]"
        state = self.follower.state if self.follower else FollowerState(self.log_name)
        ended = self.status is not None and self.status.is_terminal
        view = self.query_one(LogView)
        title = self._label(self.log_name)
        text += "\n" + log_line(
            title, state, view, ended=ended, head_fill=self.head_fill, saved_path=self.saved_path
        )
        # A local rank log deleted or renamed over while the job writes on: followed by its file.
        whose = f"{title}'s log" if title != self.log_name else title
        change = getattr(self.follower.source, "path_change", None) if self.follower else None
        moved = path_line(whose, state, change)
        return f"{text}\n{moved}" if moved else text

    # ---- the log --------------------------------------------------------------------------

    def open_log(self, name: str) -> None:
        """Show log `name` from its start and follow it (the previous follower stops)."""
        source = self.sources.get(name)
        if source is None:
            self.notify(f"{self.handle.name} has no log {name}", severity="warning")
            return
        self.log_name = name
        rank = next((r.rank for r in self._rank_logs() if r.name == name), None)
        if rank is not None:
            self.ranks.strip.select(rank)  # the strip's selection is the log on display
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
        self.metrics.reset(name)
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
            if isinstance(follower.source, FileSource):
                self._open_head(follower.source.path, start, generation)
            else:
                self._fill_head(follower.source, start, generation)
        self.network.refresh()  # not beside a big log's index: after it (_open_head)
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
                self.network.take(update.lines)
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

    def _open_head(self, path: Path, end: int, generation: int) -> None:
        """A log on this machine: the view indexes the part before the tail where it lies."""
        self.head_fill = (0, end)

        def progress(done: int) -> None:
            if generation == self._generation and self.head_fill is not None:
                self.head_fill = None if done >= end else (done, end)
                if self.head_fill is None:
                    self.show_status()
                    self.network.refresh()
                    # After the index, not beside it: parsing for the chart holds the GIL.
                    self._chart_head(path, end, generation)

        self.query_one(LogView).open_head(path, end, progress)

    @work(thread=True, exclusive=True, group="job-head", exit_on_error=False)
    def _chart_head(self, path: Path, end: int, generation: int) -> None:
        try:
            tracker = head_progress(path, end)
        except OSError:
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._charted_head, tracker, generation)

    def _charted_head(self, tracker, generation: int) -> None:
        if generation == self._generation:
            self.metrics.head_read(tracker)

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

    def _from_thread(self, callback, *args, **kwargs):
        """`callback(*args, **kwargs)` on the screen's thread, from a thread worker."""
        return self.app.call_from_thread(callback, *args, **kwargs)

    def _label(self, name: str) -> str:
        return label(name, self._rank_logs())
