"""Layouts of the third fresh held-out set folded into the corpus's dev half (issue 37, round
seven): `cv` as an evaluation word, `Cross entropy` as the loss, tables whose cells are between
bars, pairs joined by `/`, a `Learning iteration`, and an aligned report of one `key: value` a
line whose parts of the loss are no total. Each line is from a stream of
tests/logs/data/progress/fresh/2026-11-27c.txt, as printed (the source is named beside it)."""

from __future__ import annotations

from pathlib import Path

from tui.logs.progress import LineReader


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_metrics_csv_gives_no_training_loss_for_a_cv_line(tmp_path: Path, capsys) -> None:
    from tui.cli.metrics import cmd_metrics

    log = tmp_path / "train.log"
    log.write_text(
        # WeNet's TRAIN and CV Batch lines (wenet-e2e/wenet#941), its per-epoch CV info (#846)
        "2023-01-30 18:49:20,438 DEBUG TRAIN Batch 4/203800 loss 25.618004 loss_att 20.509174 "
        "loss_ctc 37.538609 lr 0.00032619 rank 0\n"
        "2023-01-30 18:49:56,046 DEBUG CV Batch 4/0 loss 28.402842 loss_att 24.164579 "
        "loss_ctc 38.292122 history loss 27.845923 rank 0\n"
        "2021-12-02 17:42:31,680 INFO Epoch 34 CV info cv_loss 7.824065502531311\n"
    )

    class Args:
        name, rank, format, target = str(log), None, "csv", "local"

    assert cmd_metrics(Args()) == 0
    rows = [row.split(",") for row in capsys.readouterr().out.splitlines()[1:]]
    assert [value for metric, _, _, value, _ in rows if metric == "loss"] == ["25.618004"]
    validation = [(epoch, value) for metric, _, epoch, value, _ in rows if metric == "val_loss"]
    assert validation == [("", "28.402842"), ("34", "7.824065502531311")]


def test_cross_entropy_is_the_training_loss() -> None:
    # TF's image-retraining script via absl (cloud-annotations/cloud-annotations#56)
    found = _read(
        [
            "INFO:tensorflow:2019-04-23 05:08:17.335014: Step 280: Cross entropy = 0.011189",
            "INFO:tensorflow:2019-04-23 05:08:17.372284: Step 280: Validation accuracy = 100.0% "
            "(N=100)",
        ]
    )
    assert (found[0].step, found[0].loss) == (280, 0.011189)
    assert found[1].step == 280 and found[1].loss is None


def test_rows_under_a_header_of_cells_between_bars() -> None:
    # an HF Trainer notebook table pasted into an issue (m3hrdadfi/soxan#9)
    pasted = _read(
        [
            "Step | Training Loss | Validation Loss | Accuracy",
            "-- | -- | -- | --",
            "10 | 0.698400 | 0.497485 | 0.813416",
        ]
    )
    assert (pasted[2].step, pasted[2].loss, pasted[2].val_loss) == (10, 0.6984, 0.497485)
    # Turi Create's bordered table, a rule after every row (apple/turicreate#1931)
    rule = "+" + "+".join(["-" * 24] * 4) + "+"
    head = "| Iteration              | Training Loss          | Training Accuracy      |"
    drawn = _read(
        [
            rule,
            head + " Elapsed Time (seconds) |",
            rule,
            "| 2                      | 2.631                  | 0.448                  "
            "| 40.837                 |",
            rule,
        ]
    )
    assert (drawn[3].step, drawn[3].loss) == (2, 2.631)
    assert set(drawn[3].values) == {"loss", "training_accuracy"}  # the time is no metric


def test_pairs_joined_by_a_slash_after_a_value() -> None:
    # DeepSpeed's timer line (microsoft/DeepSpeedExamples, DeepSpeed-Chat's SFT training log)
    (found,) = _read(
        [
            "[2023-04-18 01:58:41,995] [INFO] [timer.py:199:stop] epoch=2/micro_step=10/"
            "global_step=930, RunningAvgSamplesPerSec=171.72739139690447, "
            "CurrSamplesPerSec=171.75785469246833, MemAllocated=3.96GB, MaxMemAllocated=22.95GB"
        ]
    )
    assert (found.step, found.epoch, found.loss) == (930, 2, None)


def test_parts_of_the_loss_in_an_aligned_report_are_no_training_loss() -> None:
    # rsl_rl's learning-iteration report (isaac-sim/IsaacLab#5084): no total is printed
    found = _read(
        [
            "                            Learning iteration 1/10                             ",
            "                          Learning time: 0.060s ",
            "                        Mean value loss: 19.6685",
            "                    Mean surrogate loss: -0.0076",
            "                      Mean entropy loss: 1.3166",
        ]
    )
    assert found[0].step == 1
    assert [p.loss for p in found[2:]] == [None, None, None]
    assert [set(p.values) for p in found[2:]] == [
        {"mean_value_loss"},
        {"mean_surrogate_loss"},
        {"mean_entropy_loss"},
    ]
    # the same part on a line of its own, not in such a report, is still the loss
    assert _read(["Mean value loss: 19.6685"])[0].loss == 19.6685
