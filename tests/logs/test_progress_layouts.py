"""Layouts the first rules had not met (issue 37, round four): a table's column under its header,
a round number leading a line's pairs, CamelCase keys, a batch counter, an epoch in brackets, a
training-set error where no loss is printed, a bordered `| key | value |` table. Each case is a
dev-half stream of the progress corpus (tests/logs/data/progress/streams.txt), as printed."""

from __future__ import annotations

import pytest

from tui.logs.progress import LineReader, ProgressTracker


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_a_column_under_a_header_is_that_headers() -> None:
    # spaCy v2's textcat example (explosion/spaCy#3087): one header, then rows of numbers only
    found = _read(
        ["Training the model...", "LOSS      P       R       F", "184.500 0.505   1.000   0.671"]
    )
    row = found[-1]
    assert row.loss == pytest.approx(184.5) and row.values["f"] == pytest.approx(0.671)


def test_a_header_of_two_word_columns_reads_by_its_gaps() -> None:
    # spaCy v2's train CLI (explosion/spaCy#3166): `Dep Loss`, `NER Loss` are one column each;
    # the iteration column is the step, never a metric, and a setting echo before is no row
    header = "Itn.  Dep Loss  NER Loss  UAS     NER P.  NER R.  NER F.  Tag %   Token %  CPU WPS"
    row = "3     1.250     0.750     0.000   5.882   40.000  10.256  100.000 100.000  349.7"
    *_, found = _read(["beam_width = 1 by default", header, row])
    assert found.step == 3 and found.loss == pytest.approx(2.0)  # the parts, none whole
    assert found.values["dep_loss"] == pytest.approx(1.25) and "itn" not in found.values
    assert not any("wps" in name for name in found.values)
    assert _read([header, "0 1 2"])[-1] is None  # a row of another width is not the table's


def test_a_round_leading_the_pairs_is_the_step() -> None:
    # XGBoost's rounds, clu's metric writers (google/flax#3364), a `N |` row (nwyin/modded-llama2)
    train, val = _read(["[4]\ttrain-rmse:14.57054", "[2]\tvalidation_0-rmse:8.92523"])
    assert (train.step, train.loss) == (4, pytest.approx(14.57054))
    assert val.step == 2 and val.loss is None and val.values["validation_0_rmse"] == 8.92523
    clu = (
        "I1002 21:43:51.424899 1 logging_writer.py:35] [1000] steps_per_second=1.7, train_loss=6.5"
    )
    assert _read([clu])[0].step == 1000
    row = _read(["20 | loss 7.5000 | lr 3.000000e-04 | 13614.83ms"])[0]
    assert (row.step, row.loss) == (20, 7.5)
    assert _read(["[3] Loading checkpoint shards from step 12"])[0] is None


def test_camel_case_keys_are_read_by_their_words() -> None:
    # MXNet's Speedometer (msracver/Deep-Feature-Flow#62): four component losses, no total
    line = (
        "2018-10-22 18:55:52,482 Epoch[0] Batch [9100]\tSpeed: 7.01 samples/sec\t"
        "Train-RPNAcc=0.975624,\tRPNLogLoss=0.073470,\tRPNL1Loss=0.109630,\t"
    )
    found = _read([line])[0]
    assert (found.step, found.epoch) == (9100, 0)
    assert found.values["rpn_log_loss"] == pytest.approx(0.07347)
    assert found.loss is None  # two parts and no whole: neither is *the* training loss
    assert "speed" not in found.values


def test_batch_and_bracketed_epochs_are_counters() -> None:
    lines = [
        "[19:01:30] 2026-07-30 19:01:30 | INFO | [Epoch 4] Batch 20/126 | loss=0.0514",
        "Epoch:[0/19](200/24681) loss:4.716 lr:0.00020000 epoch_Time:96.0min:",
        "Finished Epoch[ 2 of 15]: [Training] mse = 2507.21150000 * 6000; totalSamplesSeen = 12000",
    ]
    batch, minimind, cntk = _read(lines)
    assert (batch.step, batch.total, batch.epoch, batch.per_epoch) == (20, 126, 4, True)
    assert (minimind.step, minimind.epoch, minimind.epochs) == (200, 0, 19)
    # CNTK names its training criterion `mse`: on a line whose lead says training, the loss
    assert (cntk.epoch, cntk.loss) == (2, pytest.approx(2507.2115))


def test_a_bordered_table_gives_its_counters_not_its_parts() -> None:
    # a Spinning Up EpochLogger table (yamatokataoka/reinforcement-learning-replications#6)
    found = _read(
        ["|             Epoch |              33 |", "|            LossPi |          -0.044 |"]
    )
    assert found[0].epoch == 33
    assert found[1] is None or found[1].loss is None  # a policy loss alone on its row: a part
    tracker = ProgressTracker()
    tracker.feed(["|             Epoch |              33 |", "|    loss |   0.52 |"] * 2, now=0.0)
    assert list(tracker.series["loss"].ys) == [0.52, 0.52]


@pytest.mark.parametrize(
    "before",
    ["Step | Training Loss | Validation Loss", "epoch\tloss\tacc", "Epoch  GPU_mem  box_loss"],
)
def test_rows_under_a_new_header_read_as_if_their_shape_were_new(before: str) -> None:
    # the same comma rows, first under another table's header (no rows of it then), then under
    # their own `epoch,step,loss` header: every row is a point, the first one too (a plan learned
    # under the first header once read it as nothing)
    rows = ["1,100,2.5", "1,200,2.25", "2,300,2.0"]
    tracker = ProgressTracker()
    tracker.feed([before, *rows, "epoch,step,loss", *rows])
    loss = tracker.series["loss"]
    assert (list(loss.xs), list(loss.ys)) == ([100.0, 200.0, 300.0], [2.5, 2.25, 2.0])
