"""Layouts of the eighth and ninth fresh held-out sets folded into the corpus's dev half (issue
37, round thirteen): a step a bar's description names outranks the bar's count within the
epoch, and Darknet's iteration line (a count, the loss unnamed, then its running average named).
Each line is from a stream of tests/logs/data/progress/fresh/, as printed (the source is named
beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader, parse_line


def test_a_step_the_bar_description_names_outranks_the_bars_count() -> None:
    # zylo117/Yet-Another-EfficientDet-Pytorch#723 (2026-11-27i.txt#13)
    p = parse_line(
        "Step: 28363. Epoch: 399/400. Iteration: 35/71. Cls loss: 0.04249. Reg loss: 0.00882. "
        "Total loss: 0.05131:  48%|████▊     | 34/71 [01:01<00:45,  1.23s/it]"
    )
    assert p is not None
    assert (p.step, p.epoch, p.loss) == (28363, 399.0, 0.05131)


def test_a_bar_alone_still_counts_its_steps() -> None:
    p = parse_line("Epoch 3:  48%|████▊     | 34/71 [01:01<00:45,  1.23s/it, loss=0.5]")
    assert p is not None and p.step == 34


def test_darknets_iteration_line_gives_its_step_and_the_loss_its_average_is_of() -> None:
    # AlexeyAB/darknet#1049 (2026-11-27.txt#4), pjreddie/darknet#652 (2026-11-27i.txt#12)
    reader = LineReader()
    p = reader.read(
        " 1543: 5.061356, 4.223706 avg loss, 0.001000 rate, 17.972666 seconds, 98752 images"
    )
    assert p is not None and (p.step, p.loss) == (1543, 5.061356)
    q = reader.read(
        " 46: 16729.101562, 20120.000000 avg loss, 0.000000 rate, 22.902033 seconds, 2944 images, "
        "33.156833 hours left"
    )
    assert q is not None and (q.step, q.loss) == (46, 16729.101562)


def test_an_average_that_names_nothing_names_no_loss() -> None:
    # pjreddie/darknet#377 (2026-11-27i.txt#11): `avg` alone cannot say what it averages
    p = parse_line("4: 285.326599, 289.835968 avg, 0.000100 rate, 838.663052 seconds, 256 images")
    assert p is None or p.loss is None
