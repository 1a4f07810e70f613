"""Layouts of the fourteenth fresh set (2026-11-28n) folded into the corpus's dev half (issue
37): values printed in braces, an epoch of the run's leading its line (`1/100 epoch`), and a
counter qualified by `completed` (tests/logs/test_progress_bulk.py reads the folded streams in
bulk too). Each line is from a stream of
tests/logs/data/progress/fresh/2026-11-28n.txt, as printed (the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import parse_line


def test_values_in_braces_are_read_as_the_values() -> None:
    # D641593/Lane_Segmentation train_log.log (2026-11-28n.txt#20)
    p = parse_line(
        "2022-02-11 16:22:55,129 INFO epoch: {1/300}, step: {1/8250}, loss : {1.6534357}, "
        "lr : {0.0001000}"
    )
    assert p is not None
    assert (p.loss, p.step, p.total, p.epoch, p.epochs) == (1.6534357, 1, 8250, 1.0, 300)


def test_a_count_of_epochs_leading_the_line_is_its_epoch() -> None:
    # chihina/DCGAN-example loss.log (2026-11-28n.txt#16): a GAN, so no training loss
    p = parse_line("1/100 epoch G_loss : 5.374376327559656, D_loss : 0.2261368845291293 ")
    assert p is not None and (p.epoch, p.epochs, p.loss) == (1.0, 100, None)
    q = parse_line("loss 0.3 after 1/100 epoch")  # not leading: a sentence, not the epoch
    assert q is None or q.epoch is None


def test_a_counter_qualified_by_completed() -> None:
    # pacochow/Modelling-vpl train_log.log (2026-11-28n.txt#24)
    p = parse_line("2021-08-11 17:28:10,074 - Iterations completed: 50")
    assert p is not None and p.step == 50
