"""The chart's reading of a big local log's head (screens/job_head.py `head_progress`): evenly
spaced pieces of it, read in bulk, give the points the tracker gave reading the same pieces
line by line (the job screen read them so for 13 s of GIL per 1 GB log; now about 1 s)."""

from __future__ import annotations

from pathlib import Path

import pytest

import screens.job_head as job_head
from tests.logs.test_progress_bulk import _same, _streams, _varied
from tui.logs.assembler import LineAssembler
from tui.logs.progress import ProgressTracker


def _line_by_line(path: Path, end: int, pieces: int) -> ProgressTracker:
    """The pieces `head_progress` reads, fed a decoded line at a time (its way before)."""
    tracker = ProgressTracker("log")
    step = job_head.PARSED_HEAD // pieces
    spots = [0] if end <= job_head.PARSED_HEAD else [end * i // pieces for i in range(pieces)]
    with path.open("rb") as f:
        for offset in spots:
            f.seek(offset)
            data = f.read(end - offset if end <= job_head.PARSED_HEAD else min(step, end - offset))
            if offset:
                data = data[data.find(b"\n") + 1 :]
            tracker.feed(LineAssembler().feed(data[: data.rfind(b"\n") + 1]), now=0.0)
    return tracker


@pytest.mark.parametrize("parsed", [64 << 10, 1 << 30])  # sampled pieces; the whole head
def test_the_charts_head_is_what_the_tracker_reads_line_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parsed: int
):
    monkeypatch.setattr(job_head, "PARSED_HEAD", parsed)
    lines = _varied(_streams(), repeats=3, noise=2, seed=11, each=2)
    log = tmp_path / "rank0.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    end = log.stat().st_size - 1000
    end = log.read_bytes().rfind(b"\n", 0, end) + 1  # the head ends where a line does
    chart = job_head.head_progress(log, end, pieces=32)
    _same(_line_by_line(log, end, 32), chart)
    assert chart.lines_parsed > 200 and len(chart.series["loss"].xs) > 50
