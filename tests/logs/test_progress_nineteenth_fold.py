"""Layouts of the twenty-fourth fresh set (2026-11-28x) folded into the corpus's dev half (issue
37): a CSV log whose cells lie between semicolons, a key whose bracketed count follows a space
(`batch= [51/3503]`), a counter inside a banner of dashes and an Ultralytics 8.3 row's bar drawn in
rules. Each line is from a stream of tests/logs/data/progress/fresh/2026-11-28x.txt, as printed
(the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_a_csv_log_between_semicolons_is_read_by_its_header():
    # Chen-Yifan/DEM_segmentation log.out: Keras' CSVLogger with `separator=';'`
    found = _read(
        [
            "epoch;Mean_IOU;loss;val_Mean_IOU;val_loss",
            "0;0.20552557641418562;1.5423089407739186;0.013598090775000552;1.601923291881879",
        ]
    )
    assert found[1].loss == 1.5423089407739186 and found[1].epoch == 0
    assert found[1].values["val_loss"] == 1.601923291881879


def test_a_keys_bracketed_count_after_a_space_is_that_counter():
    # Ebiquity/image_generator slurm.out
    found = _read(["GAN training: time elapsed = 51.26 [s] | epoch=1 | batch= [51/3503]"])
    assert found[0].step == 51 and found[0].total == 3503 and found[0].epoch == 1


def test_a_counter_inside_a_banner_of_dashes_is_read():
    # Ashecy/pinn-code output/log.txt
    dashes = "-" * 47
    found = _read([f"{dashes}Iteration: 1000{dashes}"])
    assert found[0].step == 1000


def test_an_ultralytics_rows_bar_drawn_in_rules_gives_the_step():
    # JackTheProgrammer/Fine-tuned-YOLO11 training_output.txt
    found = _read(
        [
            "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
            "      1/100      2.13G      1.596      2.455      1.443          1        640: 100% "
            "━━━━━━━━━━━━ 409/409 1.5it/s 4:25",
        ]
    )
    assert found[1].epoch == 1 and found[1].step == 409
    assert abs(found[1].loss - 5.494) < 1e-9


def test_a_line_in_chinese_reads_the_same_in_a_stream_as_alone():
    # BreezeDaisy/MVim logs/training.log: `验证准确率` (validation accuracy) has none of the
    # English words the quick test looks for; the stream's reader skipped it, a full reading not
    from tui.logs.progress_line import read_line

    line = "2025-10-27 21:02:25,149 - INFO - 保存最佳模型，验证准确率: 0.0333"
    found = _read([line])[0]
    assert found == read_line(line) and found.values == {"val_acc": 0.0333}


def test_a_count_written_as_a_json_string_is_its_counter():
    # Cory-M/SlowFast stdout.log: PySlowFast's json_stats
    line = (
        '[05/20 00:24:04][INFO] slowfast.utils.logging:   96: json_stats: {"_type": "train_iter", '
        '"epoch": "1/196", "eta": "19 days, 15:42:16", "gpu_mem": "4.45 GB", "iter": "10/29327", '
        '"loss": 6.144731, "lr": 0.010000, "time_diff": 0.295427, "top1_err": 100.000000}'
    )
    found = _read([line])[0]
    assert found.step == 10 and found.total == 29327 and found.epoch == 1 and found.epochs == 196
    assert found.loss == 6.144731


def test_a_bracketed_count_with_its_share_is_the_step_whatever_its_key():
    # riju92/ColorNet loss_log.txt
    found = _read(["Train Epoch:2\tPercent:[0/6751 (0%)]\tLoss:0.075679861"])[0]
    assert found.step == 0 and found.total == 6751 and found.epoch == 2
    assert found.loss == 0.075679861


def test_a_data_sets_rate_beside_the_losss_own_key_is_no_loss():
    # a semi-supervised trainer's log (fresh/2026-11-28z.txt#11): the percentages are accuracies
    line = (
        "[unsup] Epoch   1 | Train:   9.17% loss=  0.0000 | Test:  10.65% loss=  0.0000 |  "
        "13.20s (    4547 samples/s)"
    )
    found = _read([line])[0]
    assert found.loss == 0.0 and found.epoch == 1
    assert "val_loss" not in found.values  # 10.65 % is no loss


def test_a_cross_entropy_in_capitals_is_the_loss():
    # fresh/2026-11-28z.txt#17
    assert _read(["TRAIN CROSS ENTROPY: 0.0695777335712"])[0].loss == 0.0695777335712


def test_a_sentence_that_ends_with_the_loss_gives_it():
    # fresh/2026-11-28z.txt#20
    found = _read(["        Batch: 1 ended with 0.4683539569377899 loss."])[0]
    assert found.loss == 0.4683539569377899


def test_a_count_so_far_is_that_counter():
    # OpenAI baselines' logger table (fresh/2026-11-28z.txt#5)
    assert _read(["| TimestepsSoFar  | 50176         |"])[0].step == 50176


def test_a_configuration_printed_as_a_dict_is_no_metric():
    # Devesan/Deepfake_detection (vision_transformer, absl): the Hyperparameters dict
    line = (
        "I0104 23:49:16.554453 140012402842688 logging_writer.py:57] Hyperparameters: "
        "{'accum_steps': 8, 'base_lr': 0.03, 'batch': 512, 'pp': None, 'model': None, "
        "'total_steps': 10000}"
    )
    assert _read([line])[0] is None


def test_a_scalar_tensor_in_a_printed_dict_is_its_value():
    # fresh/2026-11-28zc.txt#22
    found = _read(["{'Epoch': 1, 'Loss': 6955.67724609375, 'Accuracy': tensor(2)}"])[0]
    assert found.loss == 6955.67724609375 and found.epoch == 1


def test_python_2s_print_of_a_tuple_is_read_as_the_line_it_meant():
    # fresh/2026-11-28zf.txt#19: `print("Loss at ", step, loss_val)` under Python 2
    found = _read(["('Loss at ', 10, 14.677063)"])[0]
    assert found.loss == 14.677063 and found.step == 10


def test_a_rates_qualifier_is_not_the_losss_key():
    # fresh/2026-11-28zf.txt#20
    found = _read(["Training loss per 100 training steps: 2.257507801055908"])[0]
    assert found.loss == 2.257507801055908 and found.step is None
