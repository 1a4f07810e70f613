"""Layouts of the sixteenth fresh set (2026-11-28p) and an older dev stream folded into the
corpus's dev half (issue 37): a step, a data set's name and its loss, all a line holds
(build-nanogpt's log file), and a `total` that is, beside a step, the line's one metric. Each
line is from a stream of tests/logs/data/progress/, as printed (the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader, parse_line


def test_a_step_a_data_set_and_its_loss_are_read_as_such() -> None:
    # AGNDM/build-nanogpt log/log.txt (fresh/2026-11-28p.txt#12)
    reader = LineReader()
    val = reader.read("0 val 10.9310")
    assert val is not None and (val.step, val.loss, val.val_loss) == (0, None, 10.931)
    train = reader.read("0 train 10.934416")
    assert train is not None and (train.step, train.loss) == (0, 10.934416)
    later = reader.read("11 train 9.829391")
    assert later is not None and (later.step, later.loss) == (11, 9.829391)


def test_a_count_a_word_and_a_whole_number_or_a_sentence_is_no_loss() -> None:
    for line in ("3 test 5", "0 hella 0.2413", "Using 2 train 0.5 splits", "12 train samples"):
        p = parse_line(line)
        assert p is None or p.loss is None, line


def test_a_total_alone_beside_a_step_is_the_loss() -> None:
    # And1210/FER_SSL train.out (fresh/2026-11-28n.txt#1)
    p = parse_line("[epoch: 79/200, iter: 275/448] total: 1.005612 ")
    assert p is not None and (p.loss, p.step, p.epoch) == (1.005612, 275, 79.0)
    # without a step, or beside another metric, a total says nothing of the loss
    for line in ("total: 1.005612", "[iter: 275/448] total: 1.0056 acc: 0.91"):
        q = parse_line(line)
        assert q is None or q.loss is None, line
