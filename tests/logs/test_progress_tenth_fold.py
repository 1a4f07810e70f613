"""Layouts of the twelfth fresh held-out set (2026-11-27l) folded into the corpus's dev half
(issue 37): a line that labels its values as losses and prints a total among them gives that
total as the loss.
Each line is from a stream of tests/logs/data/progress/fresh/2026-11-27l.txt, as printed (the
source is named beside it), read through the same reader the chart and `metrics` use."""

from __future__ import annotations

from tui.logs.progress import parse_line

YOLO = (
    "[Epoch 0/30, Batch 1/7329] [Losses: x 0.293469, y 0.274481, w 9.411040, h 7.295195, "
    "conf 4.243053, cls 0.818346, total 22.335585, recall: 0.00473, precision: 0.00000]"
)


def test_a_total_under_a_losses_label_is_the_loss() -> None:
    # aunnnn/PyTorch-YOLOv3 log_train.txt (2026-11-27l.txt#8)
    p = parse_line(YOLO)
    assert p is not None
    assert (p.loss, p.step, p.epoch) == (22.335585, 1, 0.0)
    assert p.values["recall"] == 0.00473  # the line's other measures stay theirs


def test_a_total_without_a_losses_label_stays_a_plain_total() -> None:
    p = parse_line("[Epoch 0/30, Batch 1/7329] [Counts: x 3, y 4, total 7, recall: 0.5]")
    assert p is None or p.loss is None
