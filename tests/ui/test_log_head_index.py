"""The big log's line index and search over raw bytes (widgets/log_head.py): every checkpoint
names the line that really starts there, every line reads back as written, every hit has its
true line number, across reads of every size and lines longer than a read; counted by this
thread or by helper processes (widgets/log_count.py), a part each, whichever of them fails."""

from __future__ import annotations

import random
import sys
import threading
from array import array
from pathlib import Path

import psutil
import pytest

import widgets.log_head as log_head
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


def indexed(path: Path, helpers: int = 0) -> LogHead:
    head = LogHead(path, path.stat().st_size)
    index_head(head, head.take, lambda: False, helpers=helpers)
    return head


@pytest.mark.parametrize("helpers", [0, 1, 3])
def test_every_checkpoint_names_the_line_that_starts_there(tmp_path: Path, helpers: int):
    log = tmp_path / "rank0.log"
    lines = write_log(log)
    data = log.read_bytes()
    before = {child.pid for child in psutil.Process().children()}
    head = indexed(log, helpers)
    try:
        left = [child for child in psutil.Process().children() if child.pid not in before]
        assert not left  # every helper is gone, none left a zombie
        assert head.done and head.count == len(lines) and not head.indexing
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


BROKEN = {
    "missing": None,  # the helper's script is not there: python exits 2 at once
    "garbage": "import sys; sys.stdout.buffer.write(b'x' * 100)",
    "dies after one batch": (
        "import sys; from array import array\n"
        "sys.stdout.buffer.write(array('Q', [1, 1, 70000, 300]).tobytes())\n"
    ),
}


@pytest.mark.parametrize("broken", BROKEN)
def test_a_helper_that_fails_leaves_the_count_to_the_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: str
):
    log = tmp_path / "rank0.log"
    lines = write_log(log)
    script = tmp_path / "log_count.py"
    if BROKEN[broken] is not None:
        script.write_text(BROKEN[broken])
    monkeypatch.setattr(log_head, "_COUNTER", str(script))
    data = log.read_bytes()
    head = indexed(log, helpers=2)
    try:
        assert head.done and head.count == len(lines)
        assert list(head.numbers) == [data.count(b"\n", 0, start) for start in head.starts]
        assert all(start == 0 or data[start - 1] == 10 for start in head.starts)
        truth = indexed(log)
        assert len(head.starts) >= len(truth.starts) - 2  # still any line a small read away
        truth.close()
    finally:
        head.close()


def test_a_search_while_helpers_count_numbers_each_hit_as_its_line(tmp_path: Path):
    log = tmp_path / "rank0.log"
    lines = write_log(log)
    truth = [i for i, line in enumerate(lines) if b"NEEDLE" in line]
    head = LogHead(log, log.stat().st_size)
    head.indexing = True  # as the view sets it: the search leaves the numbering to the index
    took: list[tuple[array, array]] = []
    counting = threading.Thread(
        target=index_head, args=(head, lambda s, n: took.append((s, n)), lambda: False, 2)
    )
    counting.start()
    found = array("Q")

    def deliver(numbers: array, scanned: int) -> None:
        while took:  # the view takes the index's batches on its own thread, between reads
            head.take(*took.pop(0))
        found.extend(numbers)

    scan_head(head, "NEEDLE", lambda text: "NEEDLE" in text, deliver)
    counting.join()
    try:
        assert list(found) == truth
    finally:
        head.close()


def test_the_helper_runs_on_the_standard_library_alone():
    source = Path(log_head._COUNTER).read_text()
    imports = {
        line.split()[1] for line in source.splitlines() if line.startswith(("import", "from"))
    }
    assert imports <= {"__future__", "os", "sys", "array"}, imports
    assert Path(sys.executable).exists()
