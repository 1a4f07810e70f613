"""The end of a log in one read: a file's tail by seek, a blob's by a suffix Range (or, where the
server cannot serve one, as Azurite cannot, by its size and a range from there)."""

from __future__ import annotations

from pathlib import Path

from tests.logs.azurite import AppendBlob
from tui.logs.sources import FileSource, HttpRangeSource, read_tail

DATA = b"".join(f"line {i:05d}\n".encode() for i in range(20_000))  # 220 KB


async def test_a_file_tail_starts_where_its_last_bytes_do(tmp_path: Path) -> None:
    path = tmp_path / "rank0.log"
    path.write_bytes(DATA)
    start, data = await read_tail(FileSource(path), 64 << 10)
    assert start == len(DATA) - (64 << 10) and DATA[start:] == data
    assert await read_tail(FileSource(tmp_path / "none.log"), 100) == (0, b"")


async def test_a_blob_tail_from_azurite(blob: AppendBlob) -> None:
    blob.append(DATA)
    source = HttpRangeSource(blob.url_provider)
    try:
        for _ in range(2):  # the second read goes straight to the way that worked
            start, data = await read_tail(source, 64 << 10)
            assert start == len(DATA) - (64 << 10) and data == DATA[start:]
        small, whole = await read_tail(source, 10 << 20)
        assert (small, whole) == (0, DATA)
    finally:
        await source.aclose()
