"""Layouts of the eighth and ninth fresh held-out sets folded into the corpus's dev half (issue
37, rounds thirteen and fourteen): a step a bar's description names outranks the bar's count
within the epoch, Darknet's iteration line (a count, the loss unnamed, then its running average
named), and a loss printed as `nan` (said in the chart's head, never a point).
Each line is from a stream of tests/logs/data/progress/fresh/, as printed (the source is named
beside it)."""

from __future__ import annotations

import math

from tui.logs.progress import LineReader, ProgressTracker, parse_line
from widgets.metrics_chart import standing_text


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


def test_a_loss_printed_as_nan_is_said_not_plotted() -> None:
    # FuxiCV/3D-Face-GCNs#1 (2026-11-27i.txt#5): a run that diverged prints `loss: nan`
    reader = LineReader()
    before, after = (
        reader.read("epoch: 3450 loss: 0.21063452526926987"),
        reader.read("epoch: 3451 loss: nan"),
    )
    assert before is not None and not before.diverged and before.loss == 0.21063452526926987
    assert after is not None and after.diverged and after.epoch == 3451.0
    assert after.loss is None and all(map(math.isfinite, after.values.values()))


def test_a_nan_beside_the_loss_is_no_divergence() -> None:
    # a Trainer dict whose grad_norm is nan (OpenBMB/MiniCPM-V#212): the loss is 0.0
    p = parse_line("{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 1.3e-07, 'epoch': 0.0}")
    assert p is not None and p.loss == 0.0 and not p.diverged


def test_the_chart_head_says_the_loss_went_nan_and_at_which_step() -> None:
    tracker = ProgressTracker()
    tracker.feed(["step 6: loss 2.5", "step 7: loss nan", "step 8: loss nan"], now=0.0)
    assert list(tracker.series["loss"].ys) == [2.5]  # the series holds numbers only
    standing = tracker.standing()
    assert (standing.diverged, standing.diverged_step) == (True, 8)
    assert "loss [b]nan[/b] at step 8" in standing_text(standing)


def test_a_value_the_keys_colon_binds_is_the_keys_whatever_number_follows() -> None:
    # qcf-568/DocTamper#85 (2026-11-27j.txt#3): a bare 0 printed after the loss
    p = parse_line(
        "[2025-03-03 20:44:45,640][cfpns_cov_mulc_75_load.py][INFO] [train] epoch:1 "
        "iter:15360/20000 76.80% lr:0.000288 loss:0.923080 0 ETA:17.0min"
    )
    assert p is not None and (p.loss, p.step, p.epoch) == (0.92308, 15360, 1.0)
    # with no colon, `key N value` stays for the stream to prove (N may be the count)
    q = parse_line("Train loss 3 9.564240 Grad Norm 13.827114")
    assert q is None or q.loss != 3.0


def test_an_epoch_log_that_went_nan_says_at_which_epoch() -> None:
    tracker = ProgressTracker()
    tracker.feed(["epoch: 3450 loss: 0.2106", "epoch: 3451 loss: nan"], now=0.0)
    assert "loss [b]nan[/b] at epoch 3451" in standing_text(tracker.standing())


def test_the_current_loss_is_the_loss_where_its_running_average_is_printed_too() -> None:
    # kaituoxu/Speech-Transformer#18 (2026-11-27k.txt#4)
    p = parse_line(
        "Epoch 148 | Iter 11 | Average Loss 1.147 | Current Loss 1.153206 | 210.6 ms/batch"
    )
    assert p is not None and (p.loss, p.step, p.epoch) == (1.153206, 11, 148.0)


def test_a_batch_id_is_the_count_within_the_epoch() -> None:
    # BamLubi/Paddle-SIGN train.log (2026-11-27k.txt#14): PaddleRec's trainer
    p = parse_line(
        "2022-04-12 17:10:51,909 - INFO - epoch: 0, batch_id: 500, AUC:0.788134, ACC:0.688159, "
        "loss:0.18541333, avg_reader_cost: 0.00012 sec, avg_batch_cost: 0.56199 sec"
    )
    assert p is not None and (p.step, p.epoch, p.loss) == (500, 0.0, 0.18541333)
    # a bar's own count still outranks a batch_idx in its postfix (lines.txt#8, the test half)
    bar = parse_line(
        "Epoch 32: 100%|██████████| 331/331 [00:05<00:00, 88.73batch/s, batch_idx=17, loss=1.148]"
    )
    assert bar is not None and bar.step == 331


def test_a_count_glued_to_its_word_is_the_step() -> None:
    # VinAIResearch/LFM#10 (2026-11-27k.txt#2)
    p = parse_line("epoch 0 iteration100, Loss: 2.8253848552703857, Train Steps/Sec: 0.00")
    assert p is not None and (p.step, p.epoch, p.loss) == (100, 0.0, 2.8253848552703857)
    assert parse_line("saved to ckpt/iter1000 done") is None  # a path, leading no metric
