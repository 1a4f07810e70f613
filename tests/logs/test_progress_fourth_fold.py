"""Layouts of the fourth fresh held-out set folded into the corpus's dev half (issue 37, round
eight): a key followed by two bare numbers (which one it names is proven or nothing is read), a
report of one `key: value` a line under one bullet, a value in seconds, a plural counter beside
the epoch, a global count beside the epoch's `i/n`, `i = N / M`, a count glued by `_`, thousands
commas, a tab-separated table, a printed `Total` of the parts, a logger table's `total_…_steps`.
Each line is from a stream of tests/logs/data/progress/fresh/2026-11-27d.txt, as printed (the
source is named beside it)."""

from __future__ import annotations

from pathlib import Path

from tui.logs.progress import LineReader


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_metrics_csv_never_reads_the_iteration_as_the_loss(tmp_path: Path, capsys) -> None:
    from tui.cli.metrics import cmd_metrics

    # NVIDIA/tacotron2#368: `Train loss <iteration> <loss> Grad Norm <g> <s/it>`
    log = tmp_path / "train.log"
    log.write_text(
        "Epoch: 0\n"
        "Train loss 0 48.220909 Grad Norm 13.484264 5.71s/it\n"
        "Validation loss 0: 37.061010  \n"
        "Train loss 1 35.229748 Grad Norm 25.020286 3.79s/it\n"
        "Train loss 2 16.508032 Grad Norm 17.146819 3.99s/it\n"
        "Train loss 3 9.564240 Grad Norm 13.827114 3.99s/it\n"
    )

    class Args:
        name, rank, format, target = str(log), None, "csv", "local"

    assert cmd_metrics(Args()) == 0
    rows = [row.split(",") for row in capsys.readouterr().out.splitlines()[1:]]
    losses = [(step, value) for metric, step, _, value, _ in rows if metric == "loss"]
    assert losses == [("0", "48.220909"), ("1", "35.229748"), ("2", "16.508032"), ("3", "9.56424")]
    validation = [(step, value) for metric, step, _, value, _ in rows if metric == "val_loss"]
    assert validation == [("0", "37.06101")]


def test_two_bare_numbers_after_a_key_unproven_read_as_neither() -> None:
    # the tacotron2 line alone, no other metric printed in its format: which is the loss?
    alone = _read(["Train loss 3 9.564240"])[0]
    assert alone is None or (alone.loss is None and alone.step is None)
    # proven by the stream: the first number counts up in whole numbers, line after line
    found = _read(["Train loss 3 9.564240", "Train loss 4 5.843519"])
    assert found[0] is None or found[0].loss is None
    assert (found[1].step, found[1].loss) == (4, 5.843519)


def test_a_report_of_a_metric_a_line_gives_no_training_loss() -> None:
    # coqui-ai/TTS#1003 (HiFi-GAN): the generator's parts, one `| >` line each, no total
    found = _read(
        [
            "   --> STEP: 24/352 -- GLOBAL_STEP: 244300",
            "     | > G_l1_spec_loss: 0.36788  (0.35471)",
            "     | > G_gen_loss: 16.55468  (15.96176)",
            "     | > G_adv_loss: 0.00000  (0.00000)",
            "     | > loss_0: 16.55468  (15.96176)",
        ]
    )
    assert found[0].step == 244300  # the global count, not the epoch's 24 of 352
    assert all(p is None or p.loss is None for p in found[1:])
    assert found[2].values == {"g_gen_loss": 16.55468}  # still a series of its own


def test_a_cost_in_seconds_is_no_loss_and_a_plural_counter_beside_the_epoch_counts() -> None:
    # PaddlePaddle/PaddleGAN#47: CycleGAN's parts, no total, then `batch_cost: 0.28896 sec`
    paddle = _read(
        [
            "[10/23 07:05:35] ppgan.engine.trainer INFO: Epoch: 1, iters: 100 lr: 0.000200 "
            "G_idt_A_loss: 0.476 G_idt_B_loss: 0.671 G_A_adv_loss: 0.535 G_B_adv_loss: 0.266 "
            "G_A_cycle_loss: 1.384 G_B_cycle_loss: 1.018 D_A_loss: 0.146 D_B_loss: 0.317 "
            "batch_cost: 0.28896 sec reader_cost: 0.00134 sec ips: 3.46075 images/s"
        ]
    )[0]
    assert (paddle.epoch, paddle.step, paddle.loss) == (1, 100, None)
    # junyanz/pytorch-CycleGAN-and-pix2pix#510: `(epoch: 1, iters: 100, …)`, no loss word
    cycle = _read(
        [
            "(epoch: 1, iters: 100, time: 0.507, data: 0.091) D_A: 0.201 G_A: 0.297 "
            "cycle_A: 4.741 idt_A: 0.712 D_B: 0.250 G_B: 0.422 cycle_B: 2.388 idt_B: 2.395 "
        ]
    )[0]
    assert (cycle.epoch, cycle.step, cycle.loss) == (1, 100, None)


def test_counters_in_unfamiliar_spellings() -> None:
    found = _read(
        [
            # jcjohnson/torch-rnn#229
            "Epoch 43.28 / 50, i = 822991 / 973300, loss = 4.486917",
            # YaoZhang93/mmFormer#1
            "2022-07-15 04:54:34 ===> Epoch: 999_Iter:61  loss: 6.94036 || 1:0.0612 | 2:0.8569 "
            "| 3:0.7473 ||",
            # Maclory/SPSR#8
            "20-03-11 03:11:43.329 - INFO: <epoch:  4, iter:   8,600, lr:1.000e-04> l_g_pix: "
            "2.9860e-04 l_g_fea: 9.2371e-01 l_g_gan: 1.1278e-02",
        ]
    )
    assert (found[0].epoch, found[0].step, found[0].loss) == (43.28, 822991, 4.486917)
    assert (found[1].epoch, found[1].step, found[1].loss) == (999, 61, 6.94036)
    assert (found[2].epoch, found[2].step) == (4, 8600)


def test_a_tab_separated_table_gives_the_step_and_no_sum_of_rl_losses() -> None:
    # chainer/chainerrl#126: scores.txt, whose losses are PPO's policy, value and entropy terms
    found = _read(
        [
            "steps\tepisodes\telapsed\tmean\tmedian\tstdev\tmax\tmin\taverage_v\t"
            "average_loss_policy\taverage_loss_value_func\taverage_loss_entropy",
            "50099\t52\t992.4545238018036\t-19.8\t-20.0\t0.9189365834726815\t-18.0\t-21.0\t"
            "[-2.17921662]\t-0.0195257508921\t0.0531219857154\t1.36558429401",
        ]
    )
    assert (found[1].step, found[1].loss) == (50099, None)


def test_a_printed_total_of_the_parts_is_the_loss() -> None:
    # jhayes14/GAN#6: a hand-written Keras GAN loop
    found = _read(
        [
            "Initial batch losses :  Generator loss 1.1920933e-07 Discriminator loss "
            "1.4226825e-07 Total: 2.6147757e-07"
        ]
    )
    assert found[0].loss == 2.6147757e-07


def test_a_logger_tables_total_of_env_steps_is_the_step() -> None:
    # TTomilin/COOM#1: a right-aligned key/value table
    found = _read(
        [
            "|              epoch |              10 |",
            "|    total_env_steps |           1e+04 |",
            "| current_task_steps |           1e+04 |",
        ]
    )
    assert found[1].step == 10000
    assert found[2] is None or found[2].step is None
