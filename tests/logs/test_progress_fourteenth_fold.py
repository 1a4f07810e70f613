"""Layouts of the seventeenth fresh set (2026-11-28q) folded into the corpus's dev half (issue
37): a counter in brackets glued to its word, an epoch and a step in brackets with no total, a
`train` value in an evaluation line, a key's value followed by the step's time, and a logger's
name that is no training lead. Each line is from a stream of
tests/logs/data/progress/fresh/2026-11-28q.txt, as printed (the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import parse_line


def test_a_counter_in_brackets_glued_to_its_word_is_the_step():
    # ZhuangLii/naic2020_reid log/train_log.txt (reid-strong-baseline's logger)
    p = parse_line(
        "2020-09-18 08:48:10,315 reid_baseline.train INFO: Epoch[1] Iteration[50/593] "
        "Loss: 4.046, Acc: 0.000, Base Lr: 6.00e-05"
    )
    assert p is not None and (p.loss, p.step, p.epoch, p.total) == (4.046, 50, 1.0, 593)


def test_an_epoch_and_a_step_in_brackets_with_no_total():
    # abhinavagarwalla/swav-cifar10 checkpoints/train.log
    p = parse_line(
        "INFO - 09/02/20 14:19:41 - 0:02:03 - Epoch: [0][50]\tTime 2.376 (1.927)\t"
        "Data 0.000 (0.014)\tLoss 4.2079 (4.2377)\tLr: 0.0019"
    )
    assert p is not None and (p.loss, p.step, p.epoch, p.total) == (4.2079, 50, 0.0, None)


def test_the_training_sets_loss_in_an_evaluation_line_is_the_training_loss():
    # ethellight565/nanogpt-seis checkpoints/train_mix.log: nanoGPT's estimated losses
    p = parse_line("[eval] iter 0: train 9.8578 val 9.8535 lr 7.50e-07")
    assert p is not None and (p.loss, p.val_loss, p.step) == (9.8578, 9.8535, 0)
    q = parse_line("[eval] iter 0: acc 0.91 loss 2.5")  # no set named: all evaluation
    assert q is not None and q.loss is None and q.val_loss == 2.5


def test_a_value_followed_by_the_steps_time_is_the_keys():
    # the same stream: `loss x N ms/iter`
    p = parse_line("[train] iter 10: loss 8.6864 9240 ms/iter")
    assert p is not None and (p.loss, p.step) == (8.6864, 10)
    q = parse_line("Train loss 3 9.564240")  # two bare numbers: which is the loss is unsure
    assert q is None or q.loss is None


def test_a_loggers_name_is_no_training_lead():
    # HhJjPp32/NGBoost output/…/logs/ngboost_training.log: an RMSE of a fitted model's test
    p = parse_line("2026-03-30 11:26:53,110 - ngboost_train - INFO - RMSE:            150.4318")
    assert p is None or p.loss is None
    q = parse_line("[Training] mse = 2975.6")  # a lead of its own still says training
    assert q is not None and q.loss == 2975.6
