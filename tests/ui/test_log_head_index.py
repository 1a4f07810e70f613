"""The big log's line index and search over raw bytes (widgets/log_head.py): every checkpoint
names the line that really starts there, every line reads back as written, every hit has its
true line number, across reads of every size and lines longer than a read."""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest

from widgets.log_head import CHECKPOINT, INDEX_READ, READ, LogHead, index_head, scan_head


def write_log(path: Path) -> list[bytes]:
    """~30 MB of lines of every length, lines longer than a search's read, than an index's read
    and than a checkpoint's block, a few needles; the lines as written."""
    rng = random.Random(27)
    lines = [b"x" * rng.randrange(0, 300) for _ in range(40_000)]
    lines[7_000] = b"y" * (READ + 123)
    lines[20_000] = b"z" * (CHECKPOINT * 2 + 5)
    lines[30_000] = b"w" * (INDEX_READ + 7)
    for at in (0, 6_999, 7_001, 19_999, 33_333, 39_999):
        lines[at] = b"a NEEDLE here " + lines[at]
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return lines


def indexed(path: Path) -> LogHead:
    head = LogHead(path, path.stat().st_size)
    index_head(head, head.take, lambda: False)
    return head


def test_every_checkpoint_names_the_line_that_starts_there(tmp_path: Path):
    log = tmp_path / "rank0.log"
    lines = write_log(log)
    data = log.read_bytes()
    head = indexed(log)
    try:
        assert head.done and head.count == len(lines)
        for start, number in zip(head.starts, head.numbers, strict=True):
            assert start == 0 or data[start - 1 : start] == b"\n"
            assert number == data.count(b"\n", 0, start)
        for n in [
            0,
            1,
            6_999,
            7_000,
            7_001,
            20_000,
            30_000,
            39_999,
            *random.Random(5).sample(range(40_000), 200),
        ]:
            assert head.line(n) == lines[n].decode()[: len(head.line(n))]
            if len(lines[n]) < 1 << 20:
                assert head.line(n) == lines[n].decode()
    finally:
        head.close()


@pytest.mark.parametrize("index_first", [True, False])
def test_a_search_numbers_each_hit_as_its_line(tmp_path: Path, index_first: bool):
    log = tmp_path / "rank0.log"
    lines = write_log(log)
    truth = [i for i, line in enumerate(lines) if b"NEEDLE" in line]
    head = indexed(log) if index_first else LogHead(log, log.stat().st_size)
    try:
        for query in ("NEEDLE", "needle"):  # as typed, and case-blind
            assert hits(head, query) == truth
    finally:
        head.close()


def hits(head: LogHead, query: str) -> list[int]:
    found = array("Q")
    scan_head(head, query, lambda text: "needle" in text.lower(), lambda n, _: found.extend(n))
    return list(found)
