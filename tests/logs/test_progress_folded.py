"""Layouts of the fresh held-out set folded into the corpus's dev half (issue 37, round five):
a possessive key, a round with a colon, keys that name only the data set, cells of a value then
its name, counters named in a sentence or by the unit after them, a numbered loss alone on its
line, a configuration print. Each line is from a stream of
tests/logs/data/progress/fresh/2026-11-27.txt, as printed (the source is named beside it)."""

from __future__ import annotations

import pytest

from tui.logs.progress import LineReader, ProgressTracker


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_a_possessive_key_after_a_round_is_the_training_sets_error() -> None:
    # LightGBM's train() (lightgbm-org/LightGBM#1371), a stray space after the round too
    rows = ["[210]\ttraining's binary_logloss: 0.00115081\ttraining's feval_func: -210"]
    rows.append("[211] \ttraining's binary_logloss: 0.00113343\ttraining's feval_func: -211")
    found = _read(rows)
    assert [(p.step, p.loss) for p in found] == [(210, 0.00115081), (211, 0.00113343)]


def test_learn_and_test_keys_are_the_loss_on_each_set() -> None:
    # CatBoost verbose=100 (catboost/catboost#541): `N:` leads the pairs; `best` is no series
    widget, row = _read(
        [
            "MetricVisualizer(layout=Layout(align_self='stretch', height='500px'))",
            "300:\tlearn: 0.1553371\ttest: 0.1382992\tbest: 0.1382986 (299)\ttotal: 12.8s\t"
            "remaining: 29.7s",
        ]
    )
    assert widget is None
    assert (row.step, row.loss, row.val_loss) == (300, 0.1553371, 0.1382992)
    assert set(row.values) == {"loss", "val_loss"}


def test_cells_of_a_value_then_its_name() -> None:
    # tinygrad's MLPerf llama3 trainer (tinygrad/tinygrad#13803): a bare step, then cells
    row = "    2 101.78 s run, 11.8750 loss, 0.000000000001 LR, 1454.57 GB used,  17039.35 GFLOPS"
    found = _read([row])[0]
    assert (found.step, found.loss, found.values["lr"]) == (2, 11.875, 1e-12)
    assert set(found.values) == {"loss", "lr"}  # seconds, gigabytes and FLOPS are no metrics
    # Darknet (AlexeyAB/darknet#1049): the first value has no name, the next is named as its
    # running average (`avg loss`): the first is the loss (two labellers since read it so; this
    # test said "none" until round thirteen); tests/logs/test_progress_eighth_fold.py has more
    darknet = " 1543: 5.061356, 4.223706 avg loss, 0.001000 rate, 17.972666 seconds, 98752 images"
    found = _read([darknet])[0]
    assert (found.step, found.loss) == (1543, 5.061356)


def test_counters_named_in_a_sentence_or_by_their_unit() -> None:
    # TF-Slim (tensorflow/models#2980), mmcls (open-mmlab/mmpretrain#360), PyTorch's
    # word_language_model (nlpia2's notes), Tianshou (thu-ml/tianshou#449), SB3's table
    summary, saved, batch, bar, bordered = _read(
        [
            "INFO:tensorflow:Recording summary at step 0.",
            "2021-07-14 13:52:52,888 - mmcls - INFO - Saving checkpoint at 2 epochs",
            "| epoch   1 |   400/ 2983 batches | lr 20.0000 | ms/batch 11.41 | loss 18.27 | "
            "ppl 85943523.12",
            "Epoch #2: 50001it [00:40, 1237.34it/s, env_step=100000, len=200, loss=-0.023, "
            "loss/clip=-0.023, loss/ent=0.335, loss/vf=0.001, n/ep=13, n/st=2000, rew=200.00]",
            "|    total_timesteps | 2048     |",
        ]
    )
    assert summary.step == 0 and saved.epoch == 2
    assert (batch.step, batch.total, batch.per_epoch, batch.loss) == (400, 2983, True, 18.27)
    assert (bar.step, bar.epoch, bar.loss) == (100000, 2, -0.023)  # not the bar's 50001
    assert bordered.step == 2048
    # a word ending in loss is one (LLaMA2-Accessory's MetricLogger, Alpha-VLLM#48)
    closs = "[07:16:21.232598] Epoch: [2]  [1490/1504]  lr: 0.000005  closs: 0.6968 (0.8547)"
    assert _read([closs])[0].loss == 0.6968


def test_a_numbered_loss_alone_on_its_line_is_not_the_training_loss() -> None:
    # Caffe's solver (libornovax/master_thesis_code#50): the iteration's total, then one line
    # per output; `loss_x16` is a part, charted as itself, never as the loss
    lines = [
        "I1109 10:34:34.280992  9709 solver.cpp:219] Iteration 360 (0.170469 iter/s, "
        "58.6617s/10 iters), loss = 0.0140731",
        "I1109 10:34:34.281066  9709 solver.cpp:238]     Train net output #0: loss_x16 = "
        "0.00191901 (* 1 = 0.00191901 loss)",
        "I1109 10:34:34.281071  9709 solver.cpp:238]     Train net output #1: loss_x2 = "
        "0.00421752 (* 1 = 0.00421752 loss)",
    ]
    total, *parts = _read(lines)
    assert (total.step, total.loss) == (360, 0.0140731)
    assert all(part.loss is None for part in parts)
    tracker = ProgressTracker()
    tracker.feed(lines * 2, now=0.0)
    assert list(tracker.series["loss"].ys) == [0.0140731, 0.0140731]


@pytest.mark.parametrize(
    "line",
    [
        # PyTorch's word_language_model, as kept in nlpia2's checkpoint notes
        "Namespace(annealing_loss_improvement_pct=1.0, batch_size=20, bptt=35, clip=0.25, "
        "cuda=True, data='./data/wikitext-2', device='', dropout=0.2, dry_run=False, emsize=200",
        # YOLOv5's train.py settings (streams.txt, a dev stream)
        "train: weights=yolov5s.pt, cfg=, data=/content/data.yaml, epochs=4000, batch_size=30, "
        "imgsz=305, rect=False, resume=False, nosave=False, noval=False",
    ],
)
def test_a_configuration_print_is_no_progress(line: str) -> None:
    tracker = ProgressTracker()
    tracker.feed([line, line], now=0.0)
    assert _read([line]) == [None] and tracker.series == {}


def test_quoted_values_beside_a_step_are_no_configuration() -> None:
    # a logfmt line (written here, in the shape such loggers print): quotes, no Python flags
    line = 'time="2024-05-01T10:00:00Z" level=info msg="train" step=5 loss=0.31 ok=True'
    found = _read([line])[0]
    assert (found.step, found.loss) == (5, 0.31)
