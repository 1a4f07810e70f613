"""Layouts of the sixth fresh held-out set folded into the corpus's dev half (issue 37, round
ten): a Trainer dict with a `nan` in it, LightGBM's `training's rmse` rounds, a GAN's generator
loss, a loss's parts printed one a line after their total, metrics in a tqdm bar's description.
Each line is from a stream of tests/logs/data/progress/fresh/2026-11-27f.txt, as printed (the
source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_a_trainer_dict_with_a_nan_grad_norm_still_gives_its_loss_and_epoch() -> None:
    # OpenBMB/MiniCPM-V#212: loss 0.0 and grad_norm nan, the moment a user opens the chart
    (p,) = _read(
        ["{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 1.313247675185968e-07, 'epoch': 0.0}"]
    )
    assert p is not None and p.loss == 0.0 and p.epoch == 0.0
    assert "grad_norm" not in p.values  # no number to plot, and none invented


def test_lightgbm_rounds_give_the_training_sets_measure_as_the_loss() -> None:
    # energeeks/ashrae-energy-prediction#63: a watchlist named train_loss, and eval
    (p,) = _read(["[25]    train_loss's rmse: 1.33226      eval's rmse: 1.46993"])
    assert p.loss == 1.33226 and p.step == 25
    assert p.values["eval_rmse"] == 1.46993


def test_a_generators_loss_alone_is_not_the_training_loss() -> None:
    # OlaWod/PitchVC#3: a HiFi-GAN-style trainer prints only the generator's objective
    (p,) = _read(["Steps : 210005, Gen Loss Total : 25.663, Mel-Spec. Error : 0.407, s/b : 1.131"])
    assert p.step == 210005
    assert p.loss is None


def test_a_losss_parts_one_a_line_after_its_total_are_not_the_loss() -> None:
    # eriklindernoren/PyTorch-YOLOv3#81: the total, then each part alone on its line
    found = _read(
        [
            "total loss: 4119.8759765625",
            "x loss: 0.3908514479796092",
            "conf loss: 16.57646719614665",
            "cls loss: 0.561546266078949",
        ]
    )
    assert found[0].loss == 4119.8759765625
    assert [p.loss for p in found[1:]] == [None, None, None]
    assert found[2].values == {"conf_loss": 16.57646719614665}  # still its own series


def test_metrics_in_a_bars_description_are_read_and_a_decimal_is_no_file_name() -> None:
    # dhairyag/ImageNet1k_ResNet50 log_output.md: set_description with the epoch's loss
    (p,) = _read(
        [
            "Train Epoch: 1 Loss: 5.872 Acc@1 3.611 Acc@5 11.045: 100%|██████████| "
            "10010/10010 [3:06:24<00:00,  1.12s/it]"
        ]
    )
    assert (p.loss, p.step, p.epoch) == (5.872, 10010, 1.0)
    # a bar that saves a file is still not training
    (q,) = _read(["Saving model.safetensors: 100%|██████████| 3/3 [00:01<00:00,  2.1it/s]"])
    assert q is None or not q.values
