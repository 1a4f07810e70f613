"""The bulk reader (tui/logs/progress_bulk.py) takes from a log what `ProgressTracker.feed` takes
line by line: the same series, points, epochs, standing and printed times, on the corpus's real
streams as they are, repeated with their numbers varied (so their shapes' plans are trusted and
runs of lines are read a column at a time) and mixed with noise; its line groups are the lines
the CLI read one `readline` at a time before, `\\r` redraws, bad bytes and overlong lines too;
and `dtrain-tui metrics` writes the rows the per-line path and the old row formatting wrote."""

from __future__ import annotations

import io
import math
import random
import re
import sys
from pathlib import Path

import pytest

from tui.logs.progress import MAX_LINE, ProgressTracker
from tui.logs.progress_bulk import GROUP, BulkReader, _text, line_groups

CORPUS = Path(__file__).parent / "data" / "progress"
sys.path.insert(0, str(CORPUS))
import corpus  # noqa: E402

NOISE = [
    "NCCL INFO Channel 00/02 :    0   1   2   3",
    "2023-06-30 10:32:50.974378: I tensorflow/core/util/port.cc:113] oneDNN custom operations",
    "Some plain text line with no numbers at all, as most log lines are",
    "100 examples saved to /mnt/output/predictions_100.jsonl",
    "evaluating on the dev set, step 7 of 9 with lr cache",
    "",
]


def _varied(
    streams: list[corpus.Stream], repeats: int, noise: int, seed: int, each: int = 1
) -> list[str]:
    """Each stream's lines again and again (`each` times in a row), their numbers varied
    (steps, losses, times), `noise` noise lines at most after each."""
    rng = random.Random(seed)
    number = re.compile(r"(?<![A-Za-z_\d])\d+(?:\.\d+)?")

    def digits(k: int) -> str:
        return f"{rng.randrange(10**k):0{k}d}" if k else ""

    def vary(m: re.Match) -> str:
        whole, dot, fraction = m.group().partition(".")
        return whole[0] + digits(len(whole) - 1) + dot + digits(len(fraction))

    out: list[str] = []
    for stream in streams:
        for _ in range(repeats):
            for line in stream.lines:
                for _ in range(each):
                    out.append(number.sub(vary, line.text) if rng.random() < 0.9 else line.text)
                    out.extend(rng.choice(NOISE) for _ in range(rng.randrange(noise + 1)))
    return out


def _per_line(data: bytes) -> ProgressTracker:
    tracker = ProgressTracker()
    for group in line_groups(io.BytesIO(data)):
        tracker.feed([_text(raw) for raw in group], now=0.0)
    return tracker


class _Counted(BulkReader):
    """Counts the lines read a column at a time."""

    columnar = 0

    def _columns(self, plan, run, now) -> bool:
        done = super()._columns(plan, run, now)
        _Counted.columnar += len(run) if done else 0
        return done


def _bulk(data: bytes) -> ProgressTracker:
    tracker = ProgressTracker()
    reader = _Counted(tracker)
    for group in line_groups(io.BytesIO(data)):
        reader.feed(group, now=0.0)
    return tracker


def _same(a: ProgressTracker, b: ProgressTracker) -> None:
    assert list(a.series) == list(b.series)
    for name, one in a.series.items():
        other = b.series[name]
        assert (one.name, one.source) == (other.name, other.source)
        assert _bits(one.xs) == _bits(other.xs), name
        assert _bits(one.ys) == _bits(other.ys), name
        assert _bits(one.es) == _bits(other.es), name
        assert _bits(one.ns) == _bits(other.ns), name
        assert (one.stepless, one.rewinds) == (other.stepless, other.rewinds), name
    assert a.lines_parsed == b.lines_parsed
    assert a.standing() == b.standing()
    assert a._timed == b._timed and a._epoch_index == b._epoch_index


def _bits(values) -> list[str]:
    return [v.hex() if not math.isnan(v) else "nan" for v in values]


def _streams() -> list[corpus.Stream]:
    return corpus.load()


@pytest.mark.parametrize("seed", [1, 2])
def test_bulk_reads_the_corpus_streams_as_the_per_line_reader(seed: int):
    streams = _streams()
    text = "\n".join(_varied(streams, repeats=3, noise=0, seed=seed, each=8)) + "\n"
    data = text.encode()
    _Counted.columnar = 0
    bulk = _bulk(data)
    _same(_per_line(data), bulk)
    assert bulk.lines_parsed > 20_000 and _Counted.columnar > 5_000


def test_bulk_reads_each_stream_alone_and_amid_noise_as_the_per_line_reader():
    for stream in _streams():
        for noise in (0, 3):
            # a plan is trusted at a shape's second line: the third and fourth repeats use it
            lines = _varied([stream], repeats=4, noise=noise, seed=len(stream.lines))
            data = ("\n".join(lines) + "\n").encode()
            _same(_per_line(data), _bulk(data))


def test_runs_of_a_step_line_read_in_columns_keep_the_stream_state():
    lines = []
    for i in range(3 * GROUP):
        if i % 700 == 0:
            lines.append(f"Epoch {i // 700 + 1}/9")
        stamp = f"2024-05-01 10:{i // 6000 % 60:02d}:{i // 100 % 60:02d},{i % 1000:03d}"
        loss = f"loss {2 - i / 1e4:.4f} | lr 3.0e-4 | acc 0.{i % 97}"
        lines.append(f"{stamp} INFO x.py:1] step {i} | {loss}")
        if i % 997 == 5:
            lines.append(f"eval: step {i} | val_loss {i % 13}.25 | accuracy {i % 7}.5")
    data = ("\n".join(lines) + "\n").encode()
    _Counted.columnar = 0
    bulk = _bulk(data)
    _same(_per_line(data), bulk)
    assert _Counted.columnar > 2 * GROUP
    assert bulk.printed_rate() is not None and bulk.standing().epoch is not None


def test_digits_inside_keys_and_runs_that_break_read_as_the_per_line_reader():
    rng = random.Random(7)
    lines = []
    for i in range(2 * GROUP):
        stage = (i // 50) % 3  # `s0.loss_cls`, `s1.loss_cls`: one shape, other keys
        lines.append(
            f"Epoch [{i // 900 + 1}][{i % 900}/900] s{stage}.loss_cls: 0.{rng.randrange(99)}"
        )
        if rng.random() < 0.01:
            lines.append(f"step {i} | loss {rng.choice(['nan', '1e999', '-0.5', '2.5'])} | lr 0.1")
        if rng.random() < 0.01:
            lines.append(f"step {i - 5000} | loss 0.{i} | lr 0.1")  # the step goes back
    data = ("\n".join(lines) + "\n").encode()
    _same(_per_line(data), _bulk(data))


def _old_chunks(handle) -> list[list[str]]:
    """The CLI's reader before the bulk one, a `readline` at a time."""
    chunks: list[list[str]] = []
    chunk: list[str] = []
    while raw := handle.readline(MAX_LINE + 1):
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while (rest := handle.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass
            continue
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        if "\r" in text:
            text = text.rstrip("\r").rsplit("\r", 1)[-1]
        chunk.append(text)
        if len(chunk) >= GROUP:
            chunks.append(chunk)
            chunk = []
    if chunk:
        chunks.append(chunk)
    return chunks


ODD = [
    b"Epoch 0:  22%|xx | 4/18 [00:17<01:02,  4.47s/it, loss=10.07]\rEpoch 0:  28%|xx | 5/18 [00:18"
    b"<01:01,  4.47s/it, loss=9.07]\r\n",
    b"step 5 | loss 1.5 | lr 3e-4\r\n",
    b"step 6 | loss " + b"9" * (MAX_LINE - 14) + b"\n",  # MAX_LINE bytes: read
    b"step 6 | loss " + b"9" * (MAX_LINE - 13) + b"\n",  # one more: passed over
    b"step 7 | loss 1.4\xff\xfe | lr 3e-4\n",
    b"x" * (3 * MAX_LINE) + b"\n",
    b"\n",
    "step 8 | loss 1.3 | lr 3e-4 █▉\n".encode(),
]


_LONG = {i for i, line in enumerate(ODD) if len(line) > 100}
TAILS = [b"step 9 | loss 1.2", b"x" * (MAX_LINE + 1), b""]


def _odd_log(tail: bytes) -> bytes:
    """Over a group of ODD's lines in turn, its long ones (a line of MAX_LINE bytes, one over,
    one of three times) every 512 lines and around the group's end, a short one elsewhere:
    each kind met across block and group boundaries, in a log of two megabytes, not fifty."""
    lines = []
    for i in range(GROUP + 100):
        kind = i % len(ODD)
        if kind in _LONG and i % 512 >= 2 * len(ODD) and abs(i - GROUP) > len(ODD):
            kind = 1
        lines.append(ODD[kind])
    return b"".join(lines) + tail


@pytest.mark.parametrize("block", [7, 4096, MAX_LINE + 1, 1 << 20])
@pytest.mark.parametrize("tail", TAILS)
def test_line_groups_are_the_lines_readline_gave(block: int, tail: bytes):
    data = _odd_log(tail)
    groups = [[_text(raw) for raw in g] for g in line_groups(io.BytesIO(data), block=block)]
    assert groups == _old_chunks(io.BytesIO(data))


@pytest.mark.parametrize("tail", TAILS)
def test_odd_lines_read_in_bulk_as_the_per_line_reader(tail: bytes):
    data = _odd_log(tail)
    _same(_per_line(data), _bulk(data))


def _old_rows(tracker: ProgressTracker, lead_of) -> str:
    """The CSV rows formatted a row at a time (a step or an epoch not printed: empty)."""
    rows = []
    for series in tracker.series.values():
        lead, xs, es, ys = lead_of(series.name), series.xs, series.es, series.ys
        for i, (x, y, n) in enumerate(zip(xs, ys, series.ns, strict=True)):
            step = "" if math.isnan(x) else str(_number(x))
            e = "" if i >= len(es) or math.isnan(es[i]) else str(_number(es[i]))
            rows.append(f"{lead}{step},{e},{y!r},{int(n)}\n")
        series.clear()
    return "".join(rows)


def _number(x: float) -> int | float:
    return int(x) if math.isfinite(x) and x.is_integer() else x


def test_metrics_csv_is_the_rows_of_the_per_line_reader(tmp_path: Path, capsys):
    from tui.cli.metrics import _csv_name, cmd_metrics

    lines = _varied(_streams(), repeats=6, noise=2, seed=3)
    lines += ["step 1 | loss -0.0 | lr 0.0", "step 2 | loss 0.0 | lr -0.0", "step 3 | loss nan"]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n")
    expected = ["metric,step,epoch,value,index\n"]
    tracker = ProgressTracker()
    with log.open("rb") as handle:
        for chunk in _old_chunks(handle):
            tracker.feed(chunk)
            expected.append(_old_rows(tracker, _csv_name))

    class Args:
        name, rank, format, target = str(log), None, "csv", "local"

    assert cmd_metrics(Args()) == 0
    assert capsys.readouterr().out == "".join(expected)


def test_phase_lines_repeated_read_as_the_per_line_reader():
    """A line that announces a phase (`Validating...`, a stamped `INFO Validation`) is never
    passed over as noise of a known shape: each one sets what follows."""
    lines = []
    for i in range(GROUP):
        lines.append(f"step {i} | loss 0.{i % 89 + 10} | lr 0.1")
        if i % 7 == 3:
            lines += ["Validating...", f"loss: 0.{i % 13 + 10}, f1: 0.5"]
        if i % 11 == 5:
            lines += [f"2024-01-01 10:00:{i % 60:02d} INFO Validation", "loss 0.7 acc 0.5"]
            lines += [f"2024-01-01 10:00:{i % 60:02d} INFO Training", "loss 0.6 acc 0.6"]
    data = ("\n".join(lines) + "\n").encode()
    bulk = _bulk(data)
    _same(_per_line(data), bulk)
    assert len(bulk.series["val_loss"].ys) > GROUP // 7 and len(bulk.series["acc"].ys) > 300
