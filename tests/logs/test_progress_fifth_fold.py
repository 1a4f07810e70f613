"""Layouts of the fifth fresh held-out set folded into the corpus's dev half (issue 37, round
nine): a metric logged per step (`aeloss_step`) is no step counter, a branch of a printed tree
holds one node of a report, the terms of the training loss printed with no total, a sentence
ended before a counter's key, a count in thousands (`Step: 1k`), a table whose loss cells are
lists of terms. Each line is from a stream of tests/logs/data/progress/fresh/2026-11-27e.txt,
as printed (the source is named beside it)."""

from __future__ import annotations

import json
from pathlib import Path

from tui.logs.progress import LineReader


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_metrics_takes_the_step_from_the_bar_not_from_a_loss_named_step(
    tmp_path: Path, capsys
) -> None:
    from tui.cli.metrics import cmd_metrics

    # hustvl/LightningDiT#73 (VA-VAE): the bar says 2/5005; `aeloss_step` is a loss per step
    log = tmp_path / "train.log"
    log.write_text(
        "Epoch 0:   0%|          | 1/5005 [00:03<5:11:29,  0.27it/s]\n"
        "Epoch 0:   0%|          | 1/5005 [00:03<5:11:31,  0.27it/s, v_num=1, "
        "aeloss_step=1.41e+5, discloss_step=0.000]\n"
        "Epoch 0:   0%|          | 2/5005 [00:06<4:10:12,  0.33it/s, v_num=1, "
        "aeloss_step=1.41e+5, discloss_step=0.000]\n"
        "Epoch 0:   0%|          | 2/5005 [00:06<4:10:52,  0.33it/s, v_num=1, "
        "aeloss_step=1.78e+5, discloss_step=0.000]\n"
    )

    class Args:
        name, rank, target = str(log), None, "local"
        format = "json"

    assert cmd_metrics(Args()) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["standing"]["step"] == 2  # the bar's, not 178000
    Args.format = "csv"
    assert cmd_metrics(Args()) == 0
    rows = [row.split(",") for row in capsys.readouterr().out.splitlines()[1:]]
    assert [(m, s, v) for m, s, _, v, _ in rows if m == "aeloss_step"] == [
        ("aeloss_step", "1", "141000.0"),
        ("aeloss_step", "2", "141000.0"),
        ("aeloss_step", "2", "178000.0"),
    ]  # a series of its own, against the bar's step
    # two objectives (autoencoder and discriminator), no total: no training loss is made up
    assert "loss" not in {metric for metric, *_ in rows}


def test_a_loss_part_on_a_branch_of_a_printed_tree_is_not_the_training_loss() -> None:
    # Deci-AI/super-gradients#1085: the epoch summary tree, the parts then their total
    found = _read(
        [
            "SUMMARY OF EPOCH 33",
            "├── Training",
            "│   ├── Dekrloss/heatmap = 0.0004",
            "│   │   ├── Best until now = 0.0004 (↘ -0.0)",
            "│   │   └── Epoch N-1      = 0.0004 (↘ -0.0)",
            "│   ├── Dekrloss/offset = 0.0007",
            "│   │   ├── Best until now = 0.0007 (↗ 0.0)",
            "│   │   └── Epoch N-1      = 0.0007 (↗ 0.0)",
            "│   └── Dekrloss/total = 0.0011",
        ]
    )
    assert found[2] is None or found[2].loss is None
    assert found[5] is None or found[5].loss is None
    assert found[8].loss == 0.0011  # the total of the loss named by its kind


def test_the_training_losss_terms_with_no_total_sum_to_it() -> None:
    # zengyan-97/X-VLM#12: one JSON line an epoch, the five terms as quoted strings
    found = _read(
        [
            '{"train_loss_itc": "1.39579", "train_loss_itm": "0.31222", "train_loss_mlm": '
            '"1.18010", "train_loss_bbox": "0.35152", "train_loss_giou": "0.53618", "train_lr": '
            '"0.00007", "train_lr_large": "0.00013", "epoch": 27}'
        ]
    )
    assert (found[0].epoch, round(found[0].loss, 5)) == (27, 3.77581)
    # but two models' losses (a GAN's discriminator and generator) are never summed:
    # RVC-Project/Retrieval-based-Voice-Conversion-WebUI#702 (VITS), fresh/2026-11-27c.txt
    gan = _read(
        [
            "INFO:Zumndamon_Model:loss_disc=3.959, loss_gen=3.062, loss_fm=7.881,loss_mel=17.356, "
            "loss_kl=1.535"
        ]
    )[0]
    assert gan is None or gan.loss is None


def test_counters_after_a_sentence_and_in_thousands() -> None:
    found = _read(
        [
            # JiahuiYu/generative_inpainting#53 (neuralgym): `… sec. train epoch 1, iter …`
            "|####################| 100.00%, 74660/0 sec. train epoch 1, iter 10000/10000, loss "
            "-0.472547, 0.13 batches/sec.",
            # CorentinJ/Real-Time-Voice-Cloning#126 (WaveRNN): the global step in thousands
            "{| Epoch: 2 (1158/1158) | Loss: 4.1365 | 1.4 steps/s | Step: 2k | }",
        ]
    )
    assert (found[0].epoch, found[0].step, found[0].loss) == (1, 10000, -0.472547)
    assert (found[1].epoch, found[1].step, found[1].loss) == (2, 2000, 4.1365)


def test_a_table_whose_loss_cells_are_lists_of_terms() -> None:
    # lululxvi/deepxde#1705: Step / Train loss / Test loss / Test metric, five terms a list
    found = _read(
        [
            "Step      Train loss                                            Test loss      "
            "                                       Test metric   ",
            "1000      [1.55e+01, 2.02e+00, 1.14e+00, 7.26e+00, 1.79e+01]    [2.84e+01, 4.46e+00, "
            "7.12e-01, 1.06e+01, 2.71e+01]    [9.40e-01]    ",
        ]
    )
    assert (found[1].step, round(found[1].loss, 4)) == (1000, 43.82)
    assert round(found[1].val_loss, 4) == 71.272
