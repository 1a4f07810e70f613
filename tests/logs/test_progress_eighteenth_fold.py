"""Layouts of the twenty-first to twenty-third fresh sets (2026-11-28u, v, w) folded into the
corpus's dev half (issue 37): evaluation told by what its count runs to (an evaluation block's
`i/n`), a part of the loss beside other measures once the stream has printed its whole loss,
`vali` as an evaluation word, `(i/n)` opening a line, a loss printed only as `nan`, a source
file's name in a line's lead, `after N epochs`, a counter's number (`Epoch_num`, `n_batch`), an
ellipsis before a bar's epoch and a data set's name with a fraction alone (`Train: 0.987`).
Each line is from a stream of tests/logs/data/progress/fresh/2026-11-28u.txt, v.txt or w.txt
(or 2026-11-27l.txt, 2026-11-28t.txt), as printed (the source is named beside it)."""

from __future__ import annotations

import math

from tui.logs.progress import LineReader, parse_line


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_an_evaluation_block_counting_to_its_own_total_stays_evaluation():
    # adityavkulkarni/7301_CNN_MAX78000FTHR log_training.txt: training counts to 500, the
    # validation after `--- validate (epoch=0)---` to 100; its summary line after it too
    found = _read(
        [
            "2024-05-11 05:00:33,108 - Epoch: [0][  500/  500]    Overall Loss 1.466034    "
            "Objective Loss 1.466034    Top1 62.500000    Top5 96.000000    LR 0.010000    "
            "Time 0.042855",
            "2024-05-11 05:00:33,331 - --- validate (epoch=0)-----------",
            "2024-05-11 05:00:33,332 - 10000 samples (100 per mini-batch)",
            "2024-05-11 05:00:36,677 - Epoch: [0][  100/  100]    Loss 1.451096    "
            "Top1 52.450000    Top5 92.270000    ",
            "2024-05-11 05:00:36,869 - ==> Top1: 52.450    Top5: 92.270    Loss: 1.451",
            "2024-05-11 05:00:41,300 - Epoch: [1][  100/  500]    Overall Loss 1.353588    "
            "Objective Loss 1.353588                                        LR 0.010000    "
            "Time 0.045195",
        ]
    )
    assert found[0].loss == 1.466034
    assert found[3].loss is None and found[3].values["val_loss"] == 1.451096
    assert found[4].loss is None and found[4].values["val_loss"] == 1.451
    assert found[5].loss == 1.353588 and found[5].step == 100  # training's count again


def test_an_evaluation_counted_after_eval_begin_stays_evaluation():
    # jm12138/Paddle-CheXNet log/train.log: training `step 614/614`, evaluation `step 10/88`
    found = _read(
        [
            "    step 614/614 - loss: 0.1481 - AUROC_Atelectasis: 0.7418",
            "    Eval begin...",
            "    step 10/88 - loss: 0.1516 - AUROC_Atelectasis: 0.7770",
        ]
    )
    assert found[0].loss == 0.1481 and found[2].loss is None


def test_parts_of_the_loss_beside_other_measures_are_not_the_loss():
    # shsu04/brain-decoding training_log.log: the whole loss first, then its parts a line each
    found = _read(
        [
            "2025-03-04 03:07:05,402 - INFO - Gwilliams2023 08 sess 0, Loss: 44.7181, "
            "CE Loss: 7.6048",
            "2025-03-04 03:07:05,402 - INFO - Mel Loss: 6.6941, Clip Loss: 9.4868, MSE: 2.5050",
            "2025-03-04 03:07:05,402 - INFO - Encoder Loss: 0.0000, Cos Sim: 0.0000, MSE: 0.0000",
        ]
    )
    assert found[0].loss == 44.7181
    assert all(p is None or p.loss is None for p in found[1:])


def test_vali_is_an_evaluation_word():
    # a time-series forecaster's `epoch vali loss` (2026-11-28u.txt#25)
    p = parse_line("Epoch: 36 | epoch vali loss: 0.79966")
    assert p is not None and p.loss is None and p.values["val_loss"] == 0.79966


def test_a_count_in_parentheses_opening_a_line_is_its_step():
    # JennyVanessa/Paddle-PANet trainlog.txt
    p = parse_line(
        "(21/62) LR: 0.000998 | Batch: 1.899s | Total: 1min | ETA: 1min | Loss: 0.414 | "
        "Loss(text/kernel): 0.330/0.085 | IoU(text/kernel): 0.666/0.561 "
    )
    assert p is not None and (p.step, p.total, p.loss) == (21, 62, 0.414)


def test_a_loss_printed_only_as_nan_is_a_divergence():
    # ByeByeChen/st-gcn-master-improved output/log.txt (2026-11-28t.txt#18)
    p = parse_line("[03.24.23|09:56:31] \tmean_loss: nan")
    assert p is not None and p.diverged and not any(map(math.isfinite, p.values.values()))


def test_a_source_files_name_in_the_lead_says_no_phase():
    # 2026-11-28v.txt#3: a logger's `test.py:108` before the values is a file, not a test phase;
    # `Loss(train)` and `Loss(val)` name the two data sets
    p = parse_line(
        "2019-04-29 00:54:11,064 - test.py:108 - train_log - [Prompt]Epoch:0, Current step: "
        "1000, Loss(train): 6.551672, Loss(val): 6.492640, alpha:0.030000"
    )
    assert p is not None and (p.loss, p.step) == (6.551672, 1000)
    assert p.values["val_loss"] == 6.49264


def test_a_count_after_which_training_finished_is_the_epoch():
    # 2026-11-28v.txt#27: `Finished training after 300 epochs`
    p = parse_line("Finished training after 300 epochs")
    assert p is not None and p.epoch == 300


def test_a_counters_number_is_the_counter():
    # 2026-11-28w.txt#23 `Epoch_num:  0`, #29 a DCGAN's `n_batch:0/157`
    p = parse_line("Epoch_num:  1 val_acc: 0.7309")
    assert p is not None and p.epoch == 1
    q = parse_line("epoch:0/25,n_batch:3/157,loss_real_D:0.5866,loss_fake_D:1.489,loss_G:1.386")
    assert q is not None and (q.step, q.epoch) == (3, 0)
    assert parse_line("num_epochs: 100") is None or parse_line("num_epochs: 100").epoch is None


def test_an_ellipsis_before_a_bars_epoch_is_no_file_extension():
    # 2026-11-28w.txt#18: `训练中...epoch0: 100%|…| 36/36`, a training bar, not a file's
    p = parse_line("训练中...epoch0: 100%|██████████| 36/36 [05:54<00:00,  9.86s/it]")
    assert p is not None and p.kind != "ignored" and p.step == 36


def test_a_data_sets_name_and_a_fraction_alone_is_its_loss():
    # 2026-11-28w.txt#17 (yihengy/SimDenoiser): `Train: 0.987` then `Validation: 51.78`
    found = _read(["Epoch #0", "Train: 0.9870158045061853", "Validation: 51.78342571223925"])
    assert found[1].loss == 0.9870158045061853
    assert found[2].loss is None and found[2].values["val_loss"] == 51.78342571223925
    assert parse_line("Train: 50000") is None or parse_line("Train: 50000").loss is None
