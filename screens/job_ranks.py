"""`JobRanks`: the job screen's rank strip (every rank's log growth, live) and the doctor's
diagnosis when the job fails; beside the strip, each GPU's use (`JobGpus`).

Each status interval it asks every rank log's size at a cost that does not grow with the ranks:
local logs are `stat`ed, a backend that can list sizes in one call (`log_sizes(handle)`: Azure
ML's artifact datastore) is asked once, and other remote logs (or a backend whose listing
answers None) get a budgeted round-robin of HEAD requests (`tui.logs.rank_watch`). The ranks'
speeds (`JobMetrics`) are shown in the strip too. When the job fails, every log's end is read
once and the doctor names the rank that failed first, its cause and the fix, under the outcome line.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.markup import escape
from textual.widgets import Static

from screens.job_gpus import JobGpus
from screens.job_status import known_empty
from tui.logs.names import rank_logs
from tui.logs.rank_watch import RankWatch, SizePoller
from tui.logs.sources import read_tail
from widgets.rank_strip import RankStrip

if TYPE_CHECKING:
    from screens.job_links import JobLinks
    from widgets.gpu_panel import GpuPanel

HEAD_BUDGET = 32
"""HEAD requests per poll for logs that can only be asked one by one."""
DOCTOR_TAIL = 1 << 20
"""Bytes read from the end of each log for the diagnosis."""


class JobRanks:
    """The rank strip's polling, and the diagnosis of a failed job, for one job screen.

    `strip` finds the screen's `RankStrip`, `doctor` its `#job-doctor` box, `gpus` its
    `GpuPanel`; the logs' sizes are asked every `interval` seconds (the screen's status
    interval, 0.2 s at the least)."""

    def __init__(
        self,
        job: JobLinks,
        *,
        strip: Callable[[], RankStrip],
        doctor: Callable[[], Static],
        gpus: Callable[[], GpuPanel],
        interval: float,
    ) -> None:
        self.job = job
        self._strip, self._doctor = strip, doctor
        self.watch = RankWatch(poll_interval=max(0.2, interval))
        self.gpus = JobGpus(
            job,
            panel=gpus,
            note=lambda text: strip().set_note(text),
            ended=lambda: self.watch.ended,
            interval=interval,
        )
        """Each GPU's use, from the sampler's lines in the logs, shown under the strip."""
        self.diagnosis: Any = None
        """The doctor's `Diagnosis` once the job failed and its logs were read."""
        self._names: dict[int, str] = {}
        self._poller: SizePoller | None = None
        self.clock = time.monotonic
        """What "now" is for the watch (a test passes its own, so silence needs no waiting)."""

    @property
    def strip(self) -> RankStrip:
        return self._strip()

    def start(self) -> None:
        self.job.run_worker(self._loop, group="job-ranks", exclusive=True, exit_on_error=False)
        self.gpus.start()

    def sizes(self) -> dict[str, int]:
        """Each rank log's size as the last poll found it (a log not seen yet is left out)."""
        ranks = self.watch.ranks
        return {
            name: size
            for rank, name in self._names.items()
            if rank in ranks and (size := ranks[rank].size) is not None
        }

    def on_display(self, name: str | None, follower: Any) -> None:
        """The log on display (`name`) and its follower: the strip gives that rank the size
        the status line gives the log (the bytes read of it), not its own last poll's."""
        rank = next((r for r, n in self._names.items() if n == name), None)
        self.strip.on_display(rank, follower.state.bytes_received if follower else 0)

    def empty(self, name: str) -> bool:
        """Whether log `name` is known to hold nothing: a file here, or as the strip saw it."""
        rank = next((r.rank for r in rank_logs(self.job.sources) if r.name == name), -1)
        return known_empty(self.job.sources.get(name), self.watch.ranks.get(rank))

    async def _loop(self) -> None:
        while True:
            await self.poll()
            if self.watch.ended:
                return
            await asyncio.sleep(self.watch.poll_interval)

    async def poll(self) -> None:
        """One round: sizes, the verdict, the strip."""
        poller = self._current_poller()
        if poller is None:
            return
        sizes = await poller.poll()
        now = self.clock()
        self.watch.observe(sizes, now)
        verdict = self.watch.verdict(now)
        strip = self.strip
        strip.set_class(len(self._names) > 1, "-shown")
        strip.show(list(self.watch.ranks.values()), verdict)

    def _current_poller(self) -> SizePoller | None:
        names = {r.rank: r.name for r in rank_logs(self.job.sources)}
        if names != self._names or self._poller is None:
            self._names = names
            self._poller = self._make_poller(names) if names else None
        return self._poller

    def _make_poller(self, names: dict[int, str]) -> SizePoller:
        sources = self.job.sources
        paths = {n: getattr(sources[n], "path", None) for n in names.values()}
        if all(isinstance(p, Path) for p in paths.values()):
            return SizePoller(names, lister=self._own_lister(paths))
        log_sizes = getattr(self.job.backend, "log_sizes", None)
        if log_sizes is not None:
            handle = self.job.handle

            async def listed() -> dict[str, int] | None:
                return await asyncio.to_thread(log_sizes, handle)

            # HEAD requests only where the backend cannot list the job's logs after all
            return SizePoller(names, sources, lister=listed, budget=HEAD_BUDGET)
        return SizePoller(names, sources, budget=HEAD_BUDGET)

    def _own_lister(self, paths: dict[str, Any]) -> Any:
        """Local logs' sizes less the GPU sampler's lines in them (those lines go to the GPU
        panel): only what a rank printed itself counts as its log growing."""
        files, by_path = self.gpus.files, {str(p): name for name, p in paths.items()}

        async def listed() -> dict[str, int]:
            self.gpus.watch.feed(await asyncio.to_thread(files.read, list(by_path)))
            own = files.own_sizes()
            return {by_path[p]: size for p, size in own.items() if p in by_path}

        return listed

    def job_ended(self, status: Any) -> None:
        """The job is over: the strip stops flagging; a failure is diagnosed."""
        self.watch.ended = True
        self.job.run_worker(self.poll(), group="job-ranks-last", exit_on_error=False)
        if status.state.value == "Failed":
            self.job.run_worker(
                self._diagnose(getattr(status, "error", None)),
                group="job-doctor",
                exit_on_error=False,
            )

    async def _diagnose(self, service_error: Any = None) -> None:
        """Every log's end, and the service's own error (code and message) beside them."""
        from tui.logs.doctor import diagnose

        sources = dict(self.job.sources)

        async def tail(name: str) -> tuple[str, str]:
            try:
                _, data = await read_tail(sources[name], DOCTOR_TAIL)
            except Exception:  # a log that cannot be read now is left out of the diagnosis
                return name, ""
            return name, data.decode("utf-8", "replace")

        texts = dict(await asyncio.gather(*(tail(n) for n in sources)))
        mtimes = {}
        for name, source in sources.items():
            path = getattr(source, "path", None)
            if isinstance(path, Path) and path.exists():
                mtimes[name] = path.stat().st_mtime
        logs = {n: t for n, t in texts.items() if t}
        local = bool(sources) and len(mtimes) == len(sources)  # every log a file here
        self.diagnosis = await asyncio.to_thread(
            diagnose, logs, mtimes, failed=True, local=local, service_error=service_error
        )
        self._show_diagnosis()

    def _show_diagnosis(self) -> None:
        d = self.diagnosis
        who = f"{d.culprit} failed first" if d.rank is not None or d.who else "the job failed"
        text = f"[b]Doctor:[/b] {escape(who)} · [b]{escape(d.title)}[/b]"
        if d.evidence is not None:
            where = f"{d.evidence.log}:{d.evidence.line}"
            text += f"\n[$text-muted]{escape(where)}:[/] {escape(d.evidence.text.strip())}"
        text += f"\n[$text-muted]Fix:[/] {escape(d.fix)}"
        box = self._doctor()
        box.update(text)
        box.add_class("-shown")
