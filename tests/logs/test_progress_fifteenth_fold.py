"""Layouts of the eighteenth fresh set (2026-11-28r) folded into the corpus's dev half (issue
37): an epoch count named by its unit after a word that announces it, a line led by its epoch's
number before the word, and a bracketed count with no word ending a line of values. Each line is
from a stream of tests/logs/data/progress/fresh/2026-11-28r.txt (or 2026-11-28q.txt), as printed
(the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import parse_line


def test_an_announced_count_of_epochs_is_the_epoch():
    # a Progress line of a committed training log (2026-11-28r, stream 14)
    p = parse_line(
        "2025-04-28 07:58:45,583 - Progress: Completed 1/1000 epochs, Total Time: 0.01 hours"
    )
    assert p is not None and (p.epoch, p.loss) == (1.0, None)
    q = parse_line("Evaluated 4/1000 epochs loss 0.5")  # not announced: no epoch taken from it
    assert q is None or q.epoch is None


def test_a_line_led_by_its_epochs_number_before_the_word():
    # umarikkar/mugs_cxr exp/train.log (2026-11-28q, stream 28): the step within it in parentheses
    p = parse_line(
        "INFO:0-epoch (4/178643): total loss 11.061650, instance-sup.: 11.446332,"
        "local-group-sup.: 10.912857,group-sup.: 10.825760,, lr 1.3994e-11, wd 4.0000e-02"
    )
    assert p is not None and (p.loss, p.step, p.epoch, p.total) == (11.06165, 4, 0.0, 178643)
    # 2026-11-28r, stream 30: the epoch announced before training starts
    q = parse_line("0 epoch: \t start training....")
    assert q is not None and q.epoch == 0.0
    # the word is a key there, and the number after it its value
    r = parse_line("37 epoch: 1 step: 48 total_loss: 0.32631")
    assert r is not None and (r.epoch, r.step, r.loss) == (1.0, 48, 0.32631)


def test_a_bracketed_count_ending_a_line_of_values_is_the_step():
    # LittleYoung1017/ASL2.0 log/train.log: the PyTorch tutorial's `loss  [current/size]`
    p = parse_line(
        "2023-07-27 16:01:53,324\troot\tINFO\tloss: 0.702515  accuracy: 48.318408 [10050/66045]"
    )
    assert p is not None and (p.loss, p.step, p.total) == (0.702515, 10050, 66045)
