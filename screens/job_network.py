"""`JobNetwork`: the job screen's network line — what NCCL says it used (issue 29).

NCCL prints its network at `NCCL_DEBUG=INFO` when each communicator starts. On this machine every
rank's log is searched for those lines (`tui.logs.network`, bounded: `bytes.find` over each file)
in a thread every `EVERY` seconds; on Azure ML the lines of the log on display are kept as they
arrive. When the plan's VM size has InfiniBand but NCCL used TCP sockets between nodes, the line
turns into the loud warning with its likely cause and fix (`dtrain-tui doctor` lists them all).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.markup import escape
from textual.widgets import Static

from tui.core.catalog import find_sku
from tui.logs.network import Network, NetworkReader, fallback_warning, read_logs
from tui.logs.sources import FileSource

if TYPE_CHECKING:
    from screens.job_links import JobLinks

EVERY = 10.0
"""Seconds between reads of this machine's rank logs for NCCL's lines."""


class JobNetwork:
    """Keeps the `#job-network` line of one job screen up to date.

    `line` finds that line; `busy` says a big log's lines are being counted (the readout waits);
    `planned` is the spec the app just submitted, if any (a job not run here: its VM size)."""

    def __init__(
        self,
        job: JobLinks,
        *,
        line: Callable[[], Static],
        busy: Callable[[], bool],
        planned: Callable[[], Any],
    ) -> None:
        self.job = job
        self._line, self._busy, self._planned = line, busy, planned
        self.reader = NetworkReader()
        self.network: Network | None = None
        self._read_at = 0.0
        self._read_files: list[tuple[str, int, int]] | None = None
        """The files (path, size, mtime) the last readout was read from."""
        self._plan: tuple[str | None, int | None] | None = None

    def take(self, lines: list[str]) -> None:
        """The log on display grew: keep its NCCL lines (a substring test per line)."""
        for line in lines:
            if "NCCL" in line or "Rank " in line:
                self.reader.feed(line)

    def refresh(self) -> None:
        """Now and then, read what NCCL said, off the screen's thread (not while a big log's
        lines are being counted: both read the whole file, and the count is what the user waits
        for)."""
        now = time.monotonic()
        if now - self._read_at < EVERY or self._busy():
            return
        self._read_at = now
        self.job.run_worker(
            self._read, thread=True, exclusive=True, group="job-network", exit_on_error=False
        )

    def _read(self) -> None:
        vm_size, nodes = self.plan()
        paths = [s.path for s in self.job.sources.values() if isinstance(s, FileSource)]
        files = [_stamp(path) for path in paths]
        if paths and files == self._read_files:
            return  # no rank's log changed (a finished job): the readout stands
        self._read_files = files
        net = read_logs(paths, nodes) if paths else self.reader.network_seen(nodes)
        with contextlib.suppress(RuntimeError):  # the screen was closed meanwhile
            self.job.call_from_thread(self.show, net, vm_size, nodes)

    def plan(self) -> tuple[str | None, int | None]:
        """The VM size and node count the job was planned with: a local job's job.json, else
        the wizard's spec (the job it just submitted)."""
        if self._plan is None:
            sku, nodes = None, None
            handle = self.job.handle
            if handle.backend == "local" and handle.location:
                with contextlib.suppress(OSError, ValueError, LookupError, AttributeError):
                    data = json.loads((Path(handle.location) / "job.json").read_text("utf-8"))
                    spec = (data.get("plan") or {}).get("spec") or {}
                    sku, nodes = spec.get("sku"), spec.get("nodes")
            else:
                spec = self._planned()
                sku, nodes = getattr(spec, "sku", None), getattr(spec, "nodes", None)
            self._plan = (sku, nodes)
        return self._plan

    def show(self, net: Network, vm_size: str | None, nodes: int | None) -> None:
        """Draw the line: the readout, the loud warning, or nothing when NCCL said nothing."""
        self.network = net
        if not self.job.mounted():
            return  # left while the logs were read
        line = self._line()
        sku = find_sku(vm_size)
        warning = fallback_warning(
            net, sku.name if sku else vm_size, bool(sku and sku.nccl_can_use_infiniband)
        )
        if warning is not None:
            text = (
                f"[b]⚠ {escape(warning.title)}[/b]\n"
                f"Likely: {escape(warning.causes[0])}. Fix: {escape(warning.fixes[0])}. "
                "(dtrain-tui doctor lists every cause and fix)"
            )
        elif net.seen:
            text = f"Network: {escape(net.summary())}"
        else:  # nothing said (NCCL_DEBUG unset, or not yet): no line, the log has the room
            text = ""
        line.update(text)
        line.set_class(bool(text), "-shown")
        line.set_class(warning is not None, "-warning")


def _stamp(path: Path) -> tuple[str, int, int]:
    try:
        stat = Path(path).stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path), stat.st_size, stat.st_mtime_ns)
