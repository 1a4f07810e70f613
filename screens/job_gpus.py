"""`JobGpus`: each GPU's use beside the job screen's rank strip (issue 39), from the sampler's
marked lines in the rank logs (`tui/injob/dtrain_tui_gpus.py` writes them, `tui.logs.gpus`
reads them and says what stands out).

Logs on this machine are read where they lie, each from where the last read ended (a
`bytes.find` for the mark over the new bytes only), in a thread every few status intervals. A
job of several ranks here on a machine with no `nvidia-smi` gets one quiet "no GPU here".
Logs elsewhere (Azure ML) are not read for samples yet: the sampler is not carried there (see
`tui.planning.stacks_env`).
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from typing import TYPE_CHECKING

from tui.logs.gpus import GpuWatch, SampleFiles
from tui.logs.names import rank_logs
from widgets.gpu_panel import GpuPanel

if TYPE_CHECKING:
    from screens.job_links import JobLinks

READS_PER_STATUS = 5
"""Status intervals between reads of the logs for samples (the sampler writes every 30 s)."""


def gpu_here() -> bool:
    """Whether this machine has a GPU the sampler can read (its `nvidia-smi`)."""
    return shutil.which("nvidia-smi") is not None


class JobGpus:
    """Keeps one job screen's `GpuPanel` up to date until the job ends.

    `panel` finds the panel; `ended` says the job is over (one last read, then it stops)."""

    def __init__(
        self,
        job: JobLinks,
        *,
        panel: Callable[[], GpuPanel],
        note: Callable[[str], None],
        ended: Callable[[], bool],
        interval: float,
    ) -> None:
        self.job = job
        self._panel, self._note, self._ended = panel, note, ended
        self.every = READS_PER_STATUS * max(0.2, interval)
        self.watch = GpuWatch()
        self.files = SampleFiles()
        self._said_none = False

    def start(self) -> None:
        self.job.run_worker(self._loop, group="job-gpus", exclusive=True, exit_on_error=False)

    async def _loop(self) -> None:
        while True:
            last = self._ended()
            await self.read()
            if last:
                return
            await asyncio.sleep(self.every)

    def _paths(self) -> list[str] | None:
        """Every log's file here, or None when some log is not on this machine."""
        paths = [getattr(s, "path", None) for s in self.job.sources.values()]
        if not paths or any(p is None for p in paths):
            return None
        return [str(p) for p in paths]

    async def read(self) -> None:
        """One round: new samples from the logs here, then the panel."""
        paths = self._paths()
        if paths is None:
            return
        lines = await asyncio.to_thread(self.files.read, paths)
        self.watch.feed(lines)
        if not self.job.mounted():
            return
        if self.watch.seen:
            self._panel().show(self.watch.summary(), self.watch.finding())
        elif not self._said_none and len(rank_logs(self.job.sources)) > 1 and not gpu_here():
            # In the rank strip's summary (a one-rank job has none): no row taken from the log.
            self._said_none = True
            self._note("no GPU here (nothing to sample)")
