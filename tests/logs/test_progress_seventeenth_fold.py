"""Layouts of the twentieth fresh set (2026-11-28t) folded into the corpus's dev half (issue
37): an epoch named before a dict of values, `[Epoch e/n][ i:n]`, and a measure named before the
data sets' keys. Each line is from a stream of tests/logs/data/progress/fresh/2026-11-28t.txt, as
printed (the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import parse_line


def test_an_epoch_named_before_a_dict_of_values():
    # wolverinex24/titans-architecture outputs/train.log: `Epoch N: {'loss': x}`
    p = parse_line(
        "2025-02-22 12:15:45,882 - titans_training - INFO - Epoch 0: {'loss': 10.638753890991211}"
    )
    assert p is not None and (p.loss, p.epoch) == (10.638753890991211, 0.0)


def test_an_epoch_in_brackets_then_the_step_and_its_total_after_a_colon():
    # sndnyang/iDDPM logs/training_log.txt
    p = parse_line(
        "10-03 15:42:33: iddpm_main.py[280]: [Epoch 1/500][ 100:391]  Loss: 1.0350 CE: 0.0000 "
        "Dif: 1.0350 Top-1: 0.000  LR: 0.000100"
    )
    assert p is not None and (p.loss, p.step, p.epoch, p.total) == (1.035, 100, 1.0, 391)


def test_a_measure_named_before_the_data_sets_keys_is_no_loss():
    # khoa-yelo/SpliceAI outputs/train.log: per-class accuracies
    p = parse_line(
        "2025-05-04 22:32:07,090 - INFO -   Class 1: Top-k Acc → Train: 0.024, Val: 0.344;  "
        "PR-AUC → Train: 0.017, Val: 0.274"
    )
    assert p is None or p.loss is None
    # a CatBoost line of the corpus: `learn:`/`test:` name no measure, so the loss on each set
    q = parse_line(
        "100:\tlearn: 0.1697219\ttest: 0.1530068\tbest: 0.1530068 (100)\ttotal: 3.7s\t"
        "remaining: 33s"
    )
    assert q is not None and q.loss == 0.1697219
