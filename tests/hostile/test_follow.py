"""Following a local job's log while it is deleted, replaced or truncated (issue 28).

A job writes to the file it opened; the follower follows that file, as `tail -f` does, and says
when the path changed. A log truncated and rewritten past the follower's offset between two
reads is read again from its start: no fragment of a line is ever shown as a line.

The steps are driven one poll at a time (no timing): the file changes between two updates.
A real local job checks the whole path, launcher to follower, with a rank log renamed over.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest

from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.logs.follower import LogFollower, LogUpdate, Timing
from tui.logs.sources import FileSource

job_root = backends.job_root
backend = backends.backend
NOW = Timing(min_interval=0.0, max_interval=0.0, backoff_base=0.0, backoff_max=0.0)


def lines(tag: str, start: int, stop: int) -> bytes:
    return b"".join(
        b"%s line %06d written by the job\n" % (tag.encode(), i) for i in range(start, stop)
    )


class Stepper:
    """A follower driven one update at a time; `shown` is what a view holds (a restart clears
    it), `everything` every line ever handed out."""

    def __init__(self, source: FileSource) -> None:
        self.source = source
        self.updates = LogFollower(source, timing=NOW, sleep=_no_sleep).updates()
        self.shown: list[str] = []
        self.everything: list[str] = []
        self.seen: list[LogUpdate] = []

    async def until(self, predicate) -> None:
        async with asyncio.timeout(10):
            while not predicate():
                update = await anext(self.updates)
                self.seen.append(update)
                if update.restart:
                    self.shown.clear()
                self.shown.extend(update.lines)
                self.everything.extend(update.lines)


async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


@pytest.mark.parametrize("change", ["deleted", "renamed over"])
async def test_a_log_whose_path_changes_is_followed_by_its_file(tmp_path: Path, change: str):
    log = tmp_path / "std_log_process_0.txt"
    writer = log.open("ab", buffering=0)  # the job's stdout
    try:
        writer.write(lines("job", 0, 500))
        step = Stepper(FileSource(log, name="user_logs/std_log_process_0.txt"))
        await step.until(lambda: len(step.shown) == 500)
        if change == "deleted":
            log.unlink()
        else:
            (tmp_path / "decoy.txt").write_bytes(lines("decoy", 0, 2000))
            os.replace(tmp_path / "decoy.txt", log)
        writer.write(lines("job", 500, 1000))
        await step.until(lambda: len(step.shown) >= 1000)
    finally:
        writer.close()
    assert step.shown == lines("job", 0, 1000).decode().splitlines()
    notices = {u.state.notice for u in step.seen if u.state.notice}
    what = "was deleted" if change == "deleted" else "now names another file"
    assert step.source.path_change == ("deleted" if change == "deleted" else "replaced")
    assert notices == {
        f"user_logs/std_log_process_0.txt: the path {what}; following the file the job writes,"
        " as before"
    }


@pytest.mark.parametrize("cut", [0, 10, 4321])
async def test_a_log_truncated_and_rewritten_past_the_offset_is_read_again(tmp_path, cut):
    """Truncated (to `cut` bytes) and rewritten beyond where the follower was between two of
    its reads: before, it read on from its offset, in the middle of a new line."""
    log = tmp_path / "rank.log"
    log.write_bytes(lines("old", 0, 300) + b"old line half writ")  # a partial last line
    step = Stepper(FileSource(log))
    await step.until(lambda: len(step.shown) == 300)
    with log.open("r+b") as f:
        f.truncate(cut)
        f.seek(cut)
        f.write(b"\n" if cut else b"")
        f.write(lines("new", 0, 1000))
    await step.until(lambda: any(u.restart for u in step.seen) and len(step.shown) >= 1000)
    written = set(lines("old", 0, 300).decode().splitlines())
    written |= set(lines("new", 0, 1000).decode().splitlines())
    written |= set(log.read_text().splitlines())  # the kept head of the old text, as it is now
    fragments = [line for line in step.everything if line not in written]
    assert fragments == []
    assert step.shown == log.read_text().splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("launch", ["per_process", "per_node"])
async def test_a_real_job_is_followed_when_its_rank_log_is_renamed_over(
    tmp_path: Path, backend: LocalBackend, launch: str
):
    """One process per rank (each writes its own log) and torchrun's per-node launcher (whose
    output the supervisor routes into each rank's log): both write on to the file they
    opened, and the follower shows every line."""
    (tmp_path / "two_halves.py").write_text(
        "import os, pathlib, sys, time\n"
        "rank = os.environ.get('RANK', '0')\n"
        "for i in range(300):\n"
        "    print(f'rank {rank} line {i:04d}', flush=True)\n"
        "go = pathlib.Path(sys.argv[1])\n"
        "while not go.exists():\n"
        "    time.sleep(0.02)\n"
        "for i in range(300, 600):\n"
        "    print(f'rank {rank} line {i:04d}', flush=True)\n"
    )
    spec = JobSpec(
        sku=None,
        nodes=1,
        gpus_per_node=2,
        code=str(tmp_path),
        script="two_halves.py",
        args=[str(tmp_path / "go")],
        launch=launch,
    )
    job = backend.submit(local_plan(spec))
    name = "user_logs/std_log_process_1.txt"
    source = backend.log_sources(job)[name]
    shown: list[str] = []

    async def follow() -> None:
        follower = LogFollower(source, done=lambda: backend.status(job).is_terminal, timing=NOW)
        async with asyncio.timeout(60):
            async for update in follower:
                shown.extend(update.lines)
                if len(shown) == 300 and not (tmp_path / "go").exists():
                    path = Path(job.location) / name
                    (tmp_path / "decoy").write_text("decoy\n" * 10)
                    os.replace(tmp_path / "decoy", path)
                    (tmp_path / "go").touch()
                await asyncio.sleep(0.01)

    await follow()
    assert backend.wait(job, timeout=60).state.value == "Completed"
    assert shown == [f"rank 1 line {i:04d}" for i in range(600)]
    assert source.moved is not None


async def test_sizes_and_tails_hold_no_descriptor(tmp_path: Path):
    """Only following keeps a log open: the rank strip's sizes and the doctor's tails of
    1,024 ranks must not hold 1,024 descriptors (the usual limit)."""
    logs = []
    for rank in range(64):
        (tmp_path / f"{rank}.txt").write_bytes(lines("job", 0, 10))
        logs.append(FileSource(tmp_path / f"{rank}.txt"))
    before = len(os.listdir("/proc/self/fd"))
    for source in logs:
        assert await source.size() == len(lines("job", 0, 10))
        assert (await source.tail(40))[1] == lines("job", 0, 10)[-40:]
    assert len(os.listdir("/proc/self/fd")) == before
    await logs[0].read(0)
    assert len(os.listdir("/proc/self/fd")) == before + 1
    await logs[0].aclose()
    assert len(os.listdir("/proc/self/fd")) == before


async def test_a_fast_truncating_writer_never_shows_a_fragment(tmp_path: Path):
    """The issue's probe: a writer truncating its log and rewriting it as fast as it can (lines
    of varying length) while it is followed. However the reads fall, every line shown is one
    that was written: the pass condition does not depend on timing, only how many rewrites
    the follower happens to see does."""
    log = tmp_path / "rank.log"
    log.write_bytes(b"")
    finished = threading.Event()

    def writer() -> None:
        fd = os.open(log, os.O_WRONLY)
        try:
            for gen in range(150):
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
                for first in range(0, 200, 20):
                    os.write(fd, b"".join(_fast(gen, i) for i in range(first, first + 20)))
        finally:
            os.close(fd)
            finished.set()

    thread = threading.Thread(target=writer)
    thread.start()
    fast = Timing(min_interval=0.0005, max_interval=0.001)
    shown: list[str] = []
    async with asyncio.timeout(60):
        async for update in LogFollower(FileSource(log), done=finished.is_set, timing=fast):
            shown.extend(update.lines)
    thread.join()
    written = {_fast(gen, i).decode().rstrip("\n") for gen in range(150) for i in range(200)}
    assert shown and [line for line in shown if line not in written] == []


def _fast(gen: int, i: int) -> bytes:
    pad = b"!" * ((gen * 7 + i) % 13)
    return b"gen %04d line %04d by a fast writer right after the truncate%s\n" % (gen, i, pad)
