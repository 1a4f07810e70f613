"""Evaluation is a context, not only a key: a line that announces evaluation (its words, its
logger's phase, an evaluation bar) puts what follows into `val_` series, whatever their keys,
until training says it is back."""

from __future__ import annotations

from tui.logs.progress import LineReader, ProgressTracker


def _read(lines: list[str]) -> list[dict[str, float]]:
    reader = LineReader()
    return [found.values if (found := reader.read(line)) else {} for line in lines]


def test_a_block_after_an_evaluation_banner_is_evaluation() -> None:
    found = _read(
        [
            "step 100 | loss 0.52",
            "***** Running Evaluation *****",
            "  Num examples = 872",
            "  loss = 0.35",
            "  accuracy = 0.91",
            "step 110 | loss 0.50",
        ]
    )
    assert found[3] == {"val_loss": 0.35} and found[4] == {"val_accuracy": 0.91}
    assert found[5] == {"loss": 0.50}  # a training line with its counter: training again


def test_a_loggers_phase_line_with_a_time_stamp_announces_evaluation() -> None:
    found = _read(
        [
            "2024-01-01 10:00:00 INFO Validation",
            "2024-01-01 10:00:01 INFO - loss=0.42 acc=0.88",
            "2024-01-01 10:00:02 INFO Training",
            "2024-01-01 10:00:03 INFO - loss=0.61 acc=0.70",
        ]
    )
    assert found[1] == {"val_loss": 0.42, "val_acc": 0.88}
    assert found[3] == {"loss": 0.61, "acc": 0.70}


def test_test_results_and_an_evaluating_line_announce_evaluation() -> None:
    assert _read(["Test results:", "loss 0.3 accuracy 0.9"])[1] == {
        "val_loss": 0.3,
        "val_accuracy": 0.9,
    }
    assert _read(["Evaluating...", "loss: 0.42, f1: 0.88"])[1] == {"val_loss": 0.42, "val_f1": 0.88}


def test_the_tracker_keeps_an_evaluation_blocks_values_out_of_the_training_loss() -> None:
    tracker = ProgressTracker()
    lines = []
    for step in (10, 20):
        lines += [f"step {step} | loss {1 / step:.3f}", "Evaluating...", "loss: 0.7, acc: 0.5"]
    tracker.feed(lines, now=0.0)
    assert list(tracker.series["loss"].ys) == [0.1, 0.05]
    assert list(tracker.series["val_loss"].ys) == [0.7, 0.7]
    assert list(tracker.series["val_loss"].xs) == [10.0, 20.0]  # at the step printed before
