"""Layouts of the seventh fresh held-out set folded into the corpus's dev half (issue 37, round
eleven): a table of a counter and one metric, a key after a run of progress dots, a JSON log
printed one member a line, YOLOv5's `box obj cls` columns, a GAN's discriminator loss. Each line
is from a stream of tests/logs/data/progress/fresh/2026-11-27g.txt, as printed (the source is
named beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_a_table_of_a_counter_and_one_metric_gives_its_steps() -> None:
    # 0084takuya/keiba catboost_info/learn_error.tsv
    found = _read(["iter\tLogloss", "0\t0.6628424402", "1\t0.6248955113"])
    assert [p.step for p in found[1:]] == [0, 1]
    assert [p.values.get("logloss") for p in found[1:]] == [0.6628424402, 0.6248955113]


def test_a_key_after_a_run_of_progress_dots_is_read() -> None:
    # vijrao3000/cifar10_cnn_pytorch README: the script prints a dot per batch, then the epoch
    (p,) = _read([".............Epoch 3 iterations 12500, average loss 1.1020949550199508"])
    assert (p.epoch, p.step, p.loss) == (3.0, 12500, 1.1020949550199508)


def test_a_json_log_printed_one_member_a_line_gives_epoch_loss_and_step() -> None:
    # openlm-research/open_llama#63: trainer_state.json's log_history, as pasted
    found = _read(['      "epoch": 2.85,', '      "loss": 0.3025,', '      "step": 550'])
    assert (found[0].epoch, found[1].loss, found[2].step) == (2.85, 0.3025, 550)
    # chainer/chainercv#391: a part of the loss alone on its member line is not the loss
    (part, whole) = _read(['        "main/loss/loc": 0.7805992364883423,', '"main/loss": 3.21'])
    assert part.loss is None and whole.loss == 3.21


def test_yolov5_box_obj_cls_columns_sum_to_the_loss() -> None:
    # peshmerge/ml_2_project yolov5/runs/train/training_terminal_output.md
    found = _read(
        [
            "     Epoch   gpu_mem       box       obj       cls    labels  img_size",
            "      0/63     5.04G   0.06408   0.03532         0        15      1280: 100%|"
            "██████████| 197/197 [05:51<00:00,  1.79s/it]",
        ]
    )
    assert round(found[1].loss, 5) == 0.0994 and found[1].epoch == 0.0


def test_a_discriminators_loss_alone_is_not_the_training_loss() -> None:
    # nat-chan/my-chainer-gan log: one member a line, loss_gen then loss_dis
    found = _read(['        "loss_gen": 1.4890296459197998,', '        "loss_dis": 0.88675'])
    assert [p.loss for p in found] == [None, None]
    assert found[1].values == {"loss_dis": 0.88675}  # its own series


def test_an_epoch_out_of_a_total_printed_as_a_float_is_read() -> None:
    # alphacep/vosk-api#898 (the eighth set, folded after it was scored): Kaldi's chain recipe
    (p,) = _read(
        [
            "2022-03-25 12:06:38,882 [steps/nnet3/chain/train.py:535 - train - INFO ] Iter: "
            "20/59   Jobs: 1   Epoch: 6.67/20.0 (33.3% complete)   lr: 0.000464   "
        ]
    )
    assert (p.step, p.epoch, p.epochs) == (20, 6.67, 20)
