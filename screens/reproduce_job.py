"""`ReproducedJobScreen`: the job screen of an Azure ML job's reproduction here (`R`).

It is the job screen, and when the run here ends, a line under the doctor's compares the two
runs as `dtrain-tui reproduce` does (`tui.planning.reproduce_verdict.verdict`): each run's
doctor in one line, then the same failure here, a different one, or none ("it fails only at
scale", with the likely reason). Both runs' logs are read in an async worker.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.markup import escape
from textual.widgets import Static

from screens.job import JobScreen
from screens.jobs_rows import diagnosis
from tui.backends.base import JobHandle, JobStatus


class ReproducedJobScreen(JobScreen):
    """A local job that reproduces `cluster` (its backend and handle) as `reproduction` planned."""

    DEFAULT_CSS = """
    ReproducedJobScreen #job-compare { height: auto; padding: 0 1; display: none; }
    ReproducedJobScreen #job-compare.-shown { display: block; }
    """

    def __init__(
        self,
        backend: Any,
        handle: JobHandle,
        cluster: tuple[Any, JobHandle],
        reproduction: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(backend, handle, **kwargs)
        self.cluster = cluster
        """The Azure ML job reproduced: its backend and handle."""
        self.reproduction = reproduction
        """`tui.planning.reproduce.Reproduction`: what differs, the plan run here."""
        self.comparison: list[str] = []
        """The comparison's lines once both runs were diagnosed."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield widget
            if widget.id == "job-doctor":
                yield Static("", id="job-compare")

    def on_mount(self) -> None:
        super().on_mount()
        self.sub_title = f"reproducing {self.cluster[1].name} here: job {self.handle.name}"

    def _job_ended(self, status: JobStatus) -> None:
        super()._job_ended(status)
        box = self.query_one("#job-compare", Static)
        box.update("[b]Compared with the cluster:[/b] reading both runs' logs…")
        box.add_class("-shown")
        self.run_worker(self._compare, group="job-compare", exit_on_error=False)

    async def _compare(self) -> None:
        from tui.planning.reproduce_verdict import verdict

        there = await _diagnosed(*self.cluster)
        here = await _diagnosed(self.backend, self.handle)
        self.comparison = verdict(there, here, self.reproduction)
        *said, conclusion = self.comparison
        text = f"[b]Compared with the cluster:[/b] {escape(conclusion)}"
        text += "".join(f"\n[$text-muted]{escape(line)}[/]" for line in said)
        self.query_one("#job-compare", Static).update(text)


async def _diagnosed(backend: Any, handle: JobHandle) -> Any:
    """The doctor's diagnosis of the job, or the line saying why there is none (as the CLI's
    comparison takes it)."""
    try:
        return await diagnosis(backend, handle, failed=False)
    except Exception as err:  # logs that cannot be read: the comparison says so
        return f"its logs could not be read: {err}"
