"""Progress parsed from real training logs: a table of lines from every framework's own output.

`data/progress/lines.txt` holds each line verbatim with what must be read from it (or `-`: the
line must not parse); `## source:` headers say where each came from.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui.logs.progress import LineReader, ProgressTracker, merge_series, parse_line, stragglers

DATA = Path(__file__).parent / "data" / "progress"
_FIELDS = {"step", "total", "epoch", "epochs", "per_epoch", "rate"}


def load_table(path: Path) -> list[tuple[str, str, str]]:
    """(source, line, expectation) for every line of the table."""
    rows: list[tuple[str, str, str]] = []
    source, pending = "", None
    for raw in path.read_text(encoding="utf-8").split("\n"):
        if pending is None:
            if raw.startswith("## source:"):
                source = raw.removeprefix("## source:").strip()
            elif raw.startswith("#") or not raw.strip():
                continue
            else:
                pending = raw
        else:
            assert raw.startswith("=> "), f"no expectation after {pending!r}"
            rows.append((source, pending, raw[3:].strip()))
            pending = None
    return rows


TABLE = load_table(DATA / "lines.txt")


def test_the_table_is_large_and_has_lines_that_must_not_parse() -> None:
    assert len(TABLE) >= 60
    assert sum(1 for _, _, expect in TABLE if expect == "-") >= 15


@pytest.mark.parametrize(("source", "line", "expect"), TABLE, ids=[r[1][:50] for r in TABLE])
def test_real_line(source: str, line: str, expect: str) -> None:
    found = parse_line(line)
    if expect == "-":
        assert found is None or found.kind == "ignored", f"{source}: {found}"
        return
    assert found is not None, f"{source}: nothing read from {line!r}"
    wanted = dict(item.split("=", 1) for item in expect.split())
    metrics = {k: float(v) for k, v in wanted.items() if k not in _FIELDS}
    if "loss" in metrics and math.isnan(metrics["loss"]):  # `loss=nan`: said, never a value
        assert found.diverged, source
        del metrics["loss"]
    assert set(found.values) == set(metrics), source
    for key, value in metrics.items():
        assert math.isclose(found.values[key], value, rel_tol=1e-9), key
    for key in ("step", "total", "epochs"):
        assert getattr(found, key) == (int(wanted[key]) if key in wanted else None), key
    assert found.epoch == (float(wanted["epoch"]) if "epoch" in wanted else None)
    assert found.per_epoch == ("per_epoch" in wanted)
    if "rate" in wanted:
        assert found.rate is not None
        assert math.isclose(found.rate, float(wanted["rate"]), rel_tol=5e-3)


def test_lightning_epochs_keep_the_printed_step_and_count_the_standing_across_epochs() -> None:
    """A point's step is the one the bar printed (within its epoch, beside the epoch); the
    standing counts steps across epochs for the ETA; the chart, whose steps go back, plots
    against the index and says so."""
    from widgets.metrics_chart import axis_label

    tracker = ProgressTracker()
    tracker.feed(
        [
            "Epoch 0: 100%|██████████| 331/331 [00:05<00:00, 88.73it/s, loss=1.148, v_num=0]",
            "Epoch 1:  50%|█████     | 165/331 [00:02<00:02, 80.00it/s, loss=1.073, v_num=0]",
        ],
        now=0.0,
    )
    loss = tracker.series["loss"]
    assert list(loss.xs) == [331.0, 165.0] and list(loss.es) == [0.0, 1.0]
    assert list(loss.ns) == [1.0, 2.0] and axis_label([loss]) == (
        "log point (the step restarts each epoch)"
    )
    standing = tracker.standing()
    assert standing.step == 496 and standing.epoch == 1.0
    assert standing.rate == 80.0
    assert standing.eta_scope == "epoch" and math.isclose(standing.eta, 166 / 80)


def test_keras_epoch_lines_set_the_epoch_and_the_total() -> None:
    tracker = ProgressTracker()
    tracker.feed(
        [
            "Epoch 2/5",
            " 422/422 ━━━━━━━━━━━━━━━━━━━━ 2s 3ms/step - accuracy: 0.9311 - loss: 0.2493",
        ],
        now=0.0,
    )
    standing = tracker.standing()
    assert (standing.step, standing.total, standing.epoch, standing.epochs) == (844, 2110, 2, 5)
    assert list(tracker.series["loss"].xs) == [422.0]  # as printed, in epoch 2


def test_rate_and_eta_from_step_arrival_times_when_there_is_no_bar() -> None:
    tracker = ProgressTracker()
    # A backlog read at once gives no rate: its steps arrived at one moment.
    tracker.feed([f"iteration {i}/1000 | lm loss: 2.5 |" for i in range(0, 100, 10)], now=100.0)
    assert tracker.standing().rate is None
    tracker.feed(["iteration 110/1000 | lm loss: 2.4 |"], now=105.0)
    tracker.feed(["iteration 120/1000 | lm loss: 2.3 |"], now=110.0)
    standing = tracker.standing()
    assert math.isclose(standing.rate, 3.0)  # from the burst's last step: 90 → 120 in 10 s
    assert standing.total == 1000 and math.isclose(standing.eta, 880 / 3.0)


def test_an_evaluation_bar_does_not_move_the_training_step() -> None:
    tracker = ProgressTracker()
    tracker.feed_partial("  3%|▎         | 30/1000 [00:10<05:20,  3.02it/s]", now=0.0)
    tracker.feed_partial(" 40%|████      | 20/50 [00:02<00:03,  9.80it/s]", now=1.0)
    assert tracker.standing().step == 30 and tracker.standing().total == 1000


def test_the_partial_line_moves_the_step_but_adds_no_points() -> None:
    tracker = ProgressTracker()
    tracker.feed_partial("  3%|▎         | 30/1000 [00:10<05:20,  3.02it/s, loss=2.5]", now=0.0)
    assert tracker.series == {} and tracker.standing().step == 30
    tracker.feed(["{'loss': 2.4, 'learning_rate': 5e-05, 'epoch': 0.1}"], now=0.0)
    assert list(tracker.series["loss"].xs) == [30.0]


def test_series_from_the_log_and_from_mlflow_are_labelled_by_source() -> None:
    log, mlflow = ProgressTracker("log"), ProgressTracker("mlflow")
    log.feed(["step 1: loss 2.0", "step 2: loss 1.5"], now=0.0)
    mlflow.feed(["step 1: loss 2.1", "step 1: accuracy 0.5"], now=0.0)
    merged = merge_series(log.series, mlflow.series)
    assert sorted(merged) == ["accuracy", "loss (log)", "loss (mlflow)"]
    assert list(merged["loss (log)"].ys) == [2.0, 1.5]
    assert merged["accuracy"].source == "mlflow"


def test_a_rank_twenty_percent_slower_than_the_median_is_a_straggler() -> None:
    rates = {"rank 0": 3.0, "rank 1": 3.1, "rank 2": 2.9, "rank 3": 2.3}
    assert stragglers(rates) == {"rank 3"}  # 2.3 ≤ 0.8 × 2.95 = 2.36
    assert stragglers({"rank 0": 3.0, "rank 1": 2.5}) == set()  # 2.5 > 0.8 × 2.75
    assert stragglers({"rank 0": 3.0}) == set()


def test_a_key_with_control_characters_is_not_a_metric() -> None:
    assert parse_line("{'\\x1b[2Jloss': 0.5, 'step': 3}").values == {}


# ---- the corpus: real streams, split once into dev and test halves (data/progress/scores.md) ----


def _corpus():
    spec = importlib.util.spec_from_file_location("progress_corpus", DATA / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["progress_corpus"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


CORPUS = _corpus()
STREAMS = CORPUS.load()


def test_the_corpus_is_large_real_and_split_by_stream() -> None:
    lines = [line for stream in STREAMS for line in stream.lines]
    assert len(lines) >= 360 and sum(1 for line in lines if line.loss is None) >= 60
    pages = {stream.source.split(" ")[0] for stream in STREAMS}
    assert len(pages) >= 30
    assert all(
        page.startswith(("https://", "keras-team/", "public", "dtrain-tui")) for page in pages
    )
    halves = CORPUS.split(STREAMS)
    assert set(halves) == {stream.key for stream in STREAMS}
    split = [h for key, h in halves.items() if key.split("#")[0] in CORPUS.SPLIT]
    assert abs(split.count("dev") - len(split) / 2) <= 3  # a held-out set folded in: all dev
    assert {h for key, h in halves.items() if key.split("#")[0] not in CORPUS.SPLIT} == {"dev"}


@pytest.mark.parametrize(
    ("half", "loss", "step", "epoch", "false_loss"),
    # Issue 37 grew the corpus with 61 streams labelled by a helper who had not read the parser
    # (the earlier 99/98/98 was reached on the streams the rules were written from); its fourth
    # round (header columns, leading rounds, CamelCase, batch and bracketed epochs) reached dev
    # 98.0/100/99.6 and test 90.1/83.0/96.0; the fifth, on a dev half grown by the fresh set
    # of 2026-11-27, dev 98.7/99.6/99.8 and test 90.1/87.9/96.0; the sixth, on a dev half grown
    # by the second fresh set (2026-11-27b), dev 99.1/99.8/99.8; the seventh, on a dev half
    # grown by the third (2026-11-27c), dev 99.3/99.8/99.9 and test 90.1/88.3/96.0; the eighth,
    # grown by the fourth (2026-11-27d), dev 99.3/99.8/99.9 and test 90.1/88.3/96.0 with 2 (was
    # 3) test lines read as a loss they do not print; the ninth, on a dev half grown by the
    # fifth (2026-11-27e, whose layouts no stream before had: dev 97.2/96.0/98.3 right after
    # the fold), dev 98.4/98.0/98.7 and test 90.1/88.3/96.0; the tenth, on a dev half grown by
    # the sixth (2026-11-27f: dev 95.4/96.5/95.9 and 22 false losses right after the fold), dev
    # 97.4/96.8/97.0 with 1 false loss and test 90.1/88.3/96.0 with 1; the eleventh, on a dev
    # half grown by the seventh (2026-11-27g: 95.0/94.9/94.6 right after the fold), dev
    # 95.9/96.5/96.0 with 1; the twelfth, on a dev half grown by the eighth (2026-11-27h), dev
    # 95.8/96.8/96.4 with 2 and test 90.1/88.3/96.0 with 1; the thirteenth, on a dev half grown
    # by the ninth (2026-11-27i: 94.3/95.5/95.7 with 12 right after the fold: Darknet's
    # per-layer total_loss lines and a YOLOv2's one-part-a-line tf.Print are still read as the
    # loss), dev 94.4/96.1/95.7 with 12; the fourteenth (a loss printed as nan is said), dev
    # 94.8/96.1/95.7 with 12, then the tenth set (2026-11-27j) folded in: 94.2/96.1/96.0 with 12,
    # and a value a key's colon binds kept, 94.5/96.1/96.0; the eleventh set (2026-11-27k) folded
    # in, the current loss over its running average, PaddlePaddle's batch_id and a count glued to
    # its word, 95.0/96.3/95.7 with 18; the twelfth set (2026-11-27l) folded in, 93.6/94.7/95.1
    # with 42, then a total under a `Losses:` label, 94.1/94.7/95.1 with 42; the fourteenth
    # (2026-11-28n) folded in, 92.5/93.1/94.3 with 42, then values in braces, a leading `1/100
    # epoch` and `Iterations completed`, 93.0/94.4/95.7 with 42; the fifteenth (2026-11-28o)
    # folded in, 93.0/94.2/96.0 with 48, then `Loss at step 1: 8.49`, `count` beside a loss and a
    # part alone after a whole loss as a part, 93.4/94.6/96.0 with 26, and the test half 90.1 ->
    # 88.8 (its labels read 3 such lone parts as the loss: scores.md, round nineteen); the
    # sixteenth (2026-11-28p) folded in, 93.1/94.3/96.2 with 26, then `0 train 10.93` and a total
    # alone beside a step, 93.9/94.8/96.2 with 26; the seventeenth (2026-11-28q) folded in,
    # 93.6/93.7/95.9 with 27, then `Iteration[50/593]`, `Epoch: [0][50]`, `train` in an
    # evaluation line, a value before the step's time and no logger name as a lead,
    # 94.0/94.5/95.9 with 26; the eighteenth (2026-11-28r) folded in, 93.9/94.4/95.8 with 27
    # (a MixMatch `True Loss`, a diagnostic), then `Completed 1/1000 epochs`, `0-epoch (4/n)`
    # and a bracketed count ending a line, 93.9/95.0/96.4 with 27; the nineteenth (2026-11-28s)
    # folded in, 93.7/94.4/96.1 with 27, then a comma header over tab rows, `step2` and metric
    # words in Chinese, 94.1/95.1/96.6 with 27; the twentieth and twenty-first (2026-11-28t,
    # u) folded in once plans were forgotten when a table's header changes, 94.0/95.0/95.8
    # with 38, then evaluation told by what its count runs to, parts beside other measures,
    # `vali`, `(i/n)` opening a line and a loss printed only as nan, 94.1/95.1/95.8 with 22; the
    # twenty-second (2026-11-28v) folded in, 93.9/95.3/95.7 with 30 (8 of them one stream's
    # best-model saves its labels call the dev set's loss), then a source file's name in the
    # lead and `after N epochs`, 94.0/95.3/95.7 with 30 and the test half 89.3/88.3/96.5; the
    # twenty-third (2026-11-28w) folded in, 93.9/94.9/95.4 with 33, then a counter's number
    # (`Epoch_num`, `n_batch:3/157`) and an ellipsis before a bar's epoch, 93.9/95.3/95.6 with
    # 33; the twenty-fourth (2026-11-28x) folded in, 94.0/95.1/95.6 with 36 (3 of them a
    # federated server's test loss), then semicolon cells, `batch= [51/3503]`, a counter in a
    # banner of dashes and a bar drawn in rules, 94.1/95.4/95.7 with 36; the twenty-fifth
    # (2026-11-28y) folded in, 94.0/95.3/95.7 with 36, then a count written as a JSON string and
    # a bracketed count with its share, 94.0/95.4/95.7 with 36; the twenty-sixth (2026-11-28z)
    # folded in, 93.6/95.2/95.8 with 36, then a data set's rate beside the loss's own key, a
    # cross entropy in capitals, a sentence ending with the loss and a count `SoFar`,
    # 94.1/95.3/95.8 with 36; the twenty-seventh (2026-11-28zc, scored once at 8508cc7, three
    # labels corrected by its blind adjudication) folded in, 94.2/95.3/95.7 with 36, then a
    # dict of settings and a scalar tensor in a dict, 94.2/95.3/95.8 with 36; the twenty-eighth
    # (2026-11-28zf, scored once at ee97c2c, notebooks' stored outputs) folded in, 94.1/95.2/95.9
    # with 41 (5 of them a k-fold's held-out loss and a Keras evaluation bar), then Python 2's
    # tuple prints and a rate's qualifier, 94.4/95.4/95.9 with 41: set a bit under, so a
    # regression shows.
    [("dev", 94.3, 95.3, 95.8, 41), ("test", 89.2, 88.0, 96.4, 1)],
)
def test_the_corpus_is_read_right(
    half: str, loss: float, step: float, epoch: float, false_loss: int
) -> None:
    score = CORPUS.score(STREAMS, half)
    assert score.loss_pct >= loss, score.summary()
    assert score.step_pct >= step, score.summary()
    assert score.epoch_pct >= epoch, score.summary()
    # the goal is no validation line read as training loss on either half (test 1, dev 2)
    assert score.false_loss <= false_loss, score.summary()


# ---- a stream's structure: a table under its header, an evaluation phase ----


def test_table_rows_are_read_under_the_header_the_stream_printed() -> None:
    reader = LineReader()
    header = "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size"
    row = "  3/30  13.1G  1.5  2.0  0.5  9  576: 100%|███| 8/8 [00:03<00:00,  2.2it/s]"
    early = reader.read(row)  # no header yet: a row of numbers means nothing
    assert early is None or early.loss is None
    assert reader.read(header) is None
    found = reader.read(row)
    assert found.loss == pytest.approx(4.0) and found.epoch == 3 and found.step == 8
    assert found.values["box_loss"] == 1.5
    assert reader.read("         all         48         28      0.5      0.4      0.3") is None


def test_a_summary_after_a_test_loop_is_evaluation() -> None:
    reader = LineReader()
    assert reader.read("Test:  [95/96]  eta: 0:00:00  loss: 0.3713 (0.4449)").loss is None
    summary = reader.read("* Acc@1 88.381 Acc@5 96.779 loss 0.445")
    assert summary.loss is None and summary.val_loss == 0.445
    back = reader.read("Epoch: [51]  [ 0/31]  eta: 0:00:53  lr: 0.000755  loss: 0.0098 (0.0098)")
    assert back.loss == 0.0098 and (back.epoch, back.step) == (51, 0)


# ---- bad input: no traceback, no point that breaks the chart's axis ----


def test_a_huge_line_and_binary_junk_are_not_progress() -> None:
    assert parse_line("loss: 1.0 " + "x" * (100 << 20)) is None
    junk = bytes(range(256)).decode("latin-1") * 40
    assert parse_line(junk) is None or all(map(math.isfinite, parse_line(junk).values.values()))
    assert parse_line("{" * 5000 + "'loss': 1" + "}" * 5000) is None


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e999", "NaN", "-1e999"])
def test_non_finite_numbers_are_dropped(text: str) -> None:
    for line in (f"step 3: loss {text}", f"{{'loss': {text!r}, 'step': 3}}", f"loss={text}"):
        found = parse_line(line)
        assert found is None or "loss" not in found.values, line


def test_a_negative_loss_is_kept_and_the_tracker_holds_only_finite_points() -> None:
    tracker = ProgressTracker()
    tracker.feed(
        ["step 1: loss -6.0185", "step 2: loss nan", "step 3: loss 1e999", "step 4: loss 0.5"],
        now=0.0,
    )
    assert list(tracker.series["loss"].xs) == [1.0, 4.0]
    assert list(tracker.series["loss"].ys) == [-6.0185, 0.5]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_reads_without_error_and_with_finite_values(text: str) -> None:
    reader = LineReader()
    for line in (text, f"step 1: loss {text}", f"{{'loss': {text!r}}}", f"Epoch 1 {text}"):
        found = reader.read(line)
        assert found is None or all(math.isfinite(v) for v in found.values.values())


def test_lines_of_a_known_shape_read_as_a_full_reading_would() -> None:
    """The shape cache (progress_shapes) gives what reading each line in full gives, on every
    corpus stream with its numbers varied (so a plan is used, checked, and sometimes wrong)."""
    import random
    import re

    from tui.logs.progress_line import StreamState, read_line

    rng = random.Random(24)
    value = re.compile(r"(?<![A-Za-z_\d])\d+(?:\.\d+)?")

    def digits(k: int) -> str:
        return f"{rng.randrange(10**k):0{k}d}" if k else ""

    def vary(line: str) -> str:
        """Every digit but a number's first (JSON has no `02`) and a whole number's `.0`."""

        def number(m: re.Match) -> str:
            whole, dot, fraction = m.group().partition(".")
            fraction = fraction if set(fraction) <= {"0"} else digits(len(fraction))
            return whole[0] + digits(len(whole) - 1) + dot + fraction

        return value.sub(number, line)

    for stream in STREAMS:
        reader, state = LineReader(), StreamState()
        for _ in range(6):
            for line in stream.lines:
                text = vary(line.text) if rng.random() < 0.8 else line.text
                assert reader.read(text) == read_line(text, state), (stream.key, text)


def test_a_head_read_afterwards_keeps_each_points_epoch() -> None:
    tail, head = ProgressTracker(), ProgressTracker()
    head.feed(["{'loss': 2.0, 'epoch': 0.5, 'step': 10}", "step 15: loss 1.9"], now=0.0)
    tail.feed(["{'loss': 1.5, 'epoch': 1.0, 'step': 20}"], now=0.0)
    tail.prepend(head)
    loss = tail.series["loss"]
    assert list(loss.xs) == [10.0, 15.0, 20.0]
    assert [loss.epoch_at(i) for i in range(3)] == [0.5, 0.5, 1.0]
