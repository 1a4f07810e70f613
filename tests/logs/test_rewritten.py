"""A log rewritten instead of appended to is read again from its start, never mixed.

Some `system_logs/` files are replaced as a whole (Azure/azure-dev#7939: "non-append-only blobs
that cause streaming artifacts"); a byte-offset follower would glue the new file's tail to the
old file's head. It is caught by the size shrinking below the offset, or by the version (a block
blob's ETag) changing while the bytes before the offset differ.
"""

from __future__ import annotations

import asyncio

from tests.logs.azurite import AppendBlob
from tui.logs.follower import LogFollower, LogUpdate, Timing
from tui.logs.sources import HttpRangeSource

FAST = Timing(min_interval=0.001, max_interval=0.004, backoff_base=0.001, backoff_max=0.004)


class Blob:
    """An in-memory blob with what HttpRangeSource reports: `total` and `version`."""

    name = "system_logs/lifecycler/lifecycler.log"

    def __init__(self, data: bytes) -> None:
        self.data, self.etag = data, 1
        self.total: int | None = None
        self.version: str | None = None
        self.reads: list[tuple[int, int | None]] = []

    def put(self, data: bytes) -> None:
        self.data, self.etag = data, self.etag + 1

    async def read(self, offset: int, limit: int | None = None) -> bytes:
        self.reads.append((offset, limit))
        self.total, self.version = len(self.data), f'"{self.etag}"'
        end = len(self.data) if limit is None else offset + limit
        return self.data[offset:end]

    async def size(self) -> int | None:
        return len(self.data)


def shown(updates: list[LogUpdate]) -> list[str]:
    """What a view shows: lines since the last restart (a restart clears it)."""
    view: list[str] = []
    for update in updates:
        if update.restart:
            view.clear()
        view.extend(update.lines)
    return view


async def follow(blob, changes: list[bytes], timing: Timing = FAST) -> list[LogUpdate]:
    """Follow `blob`; after each batch of lines, apply the next change; done when none is left."""
    done = asyncio.Event()
    pending = list(changes)
    updates: list[LogUpdate] = []
    async with asyncio.timeout(30):
        async for update in LogFollower(blob, done=done, timing=timing):
            updates.append(update)
            if update.lines:
                if pending:
                    await asyncio.to_thread(blob.put, pending.pop(0))
                else:
                    done.set()
    return updates


async def test_a_rewritten_log_starts_again_and_says_so() -> None:
    blob = Blob(b"old 1\nold 2\n")
    updates = await follow(blob, [b"new 1\nnew 2\nnew 3\n"])
    assert shown(updates) == ["new 1", "new 2", "new 3"]
    restarts = [u for u in updates if u.restart]
    assert len(restarts) == 1 and restarts[0].lines == []
    assert updates[-1].state.rewrites == 1
    assert updates[-1].state.bytes_received == len(blob.data)
    assert not any("old" in line for u in updates[updates.index(restarts[0]) :] for line in u.lines)


async def test_a_log_that_shrank_below_the_offset_starts_again() -> None:
    blob = Blob(b"a long first version\n")
    updates = await follow(blob, [b"short\n"])
    assert shown(updates) == ["short"]
    assert updates[-1].state.rewrites == 1


async def test_a_new_version_with_the_same_start_is_an_append_not_a_rewrite() -> None:
    blob = Blob(b"line 1\n")
    updates = await follow(blob, [b"line 1\nline 2\n", b"line 1\nline 2\nline 3\n"])
    assert shown(updates) == ["line 1", "line 2", "line 3"]
    assert not any(u.restart for u in updates)
    # each new version cost one check: the bytes before the offset, read again
    assert [r for r in blob.reads if r[1] != FAST.max_read] == [(0, 7), (0, 14)]


async def test_a_source_that_reports_no_version_is_never_checked() -> None:
    class Plain:
        name = "log"

        def __init__(self) -> None:
            self.data = b"x\n"
            self.reads: list[int] = []

        def put(self, data: bytes) -> None:
            self.data = data

        async def read(self, offset: int, limit: int | None = None) -> bytes:
            self.reads.append(offset)
            return self.data[offset:]

        async def size(self) -> int | None:
            return None

    plain = Plain()
    updates = await follow(plain, [b"x\ny\n"])
    assert shown(updates) == ["x", "y"]
    assert sorted(set(plain.reads)) == [0, 2, 4]


async def test_a_block_blob_rewritten_in_azurite_is_read_again_from_the_start(
    blob: AppendBlob,
) -> None:
    """Real ETags and Content-Range from Azurite: a block blob replaced twice while followed."""
    client = blob.client
    client.upload_blob(b"Lifecycler starting\nstep 1\n", overwrite=True)

    class Replaced(HttpRangeSource):
        def put(self, data: bytes) -> None:
            client.upload_blob(data, overwrite=True)

    async with Replaced(blob.url_provider, name="system_logs/lifecycler/lifecycler.log") as source:
        updates = await follow(
            source,
            [
                b"Lifecycler restarted\nstep 1 again\nstep 2\n",  # longer, different start
                b"done\n",  # shorter than what was read
            ],
        )
    assert shown(updates) == ["done"]
    assert sum(u.restart for u in updates) == 2
    assert updates[-1].state.rewrites == 2
    between = [line for u in updates for line in (["--"] if u.restart else u.lines)]
    assert between == [
        "Lifecycler starting",
        "step 1",
        "--",
        "Lifecycler restarted",
        "step 1 again",
        "step 2",
        "--",
        "done",
    ]
