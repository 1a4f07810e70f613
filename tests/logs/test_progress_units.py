"""Layouts of the second fresh held-out set folded into the corpus's dev half (issue 37, round
six): a counter named by its unit (a `| N updates |` cell, a sentence `at N iterations`, `N
epochs completed`), a sentence that announces its counter (`Start epoch 0`, `Ending
global_step: 99`), `iters:` beside a loss, a comma-separated table, a bar with another logger's
line glued after it, a set's word glued to `loss` (`validloss`). Each line is from a stream of
tests/logs/data/progress/fresh/2026-11-27b.txt, as printed (the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader, ProgressTracker, parse_line


def _read(lines: list[str]) -> list:
    reader = LineReader()
    return [reader.read(line) for line in lines]


def test_a_cell_of_a_count_and_its_unit_is_the_step() -> None:
    # Lua fairseq (facebookresearch/fairseq-lua#60): the global count of updates, then the
    # count within the epoch, which is not the step; `validloss` is the evaluation loss
    rows = [
        "| epoch 009 | 0045063 updates | 0000000 epoch updates | path trainings/fconv/"
        "state_last.th7",
        "| epoch 009 | 0046063 updates | words/s    7730| trainloss     3.03 | train ppl     8.14",
        "| checkpoint 010 | epoch 010 | 0050070 updates | validloss     3.23 | valid ppl     9.36"
        " | testloss     3.28 | test ppl     9.70",
    ]
    state, row, check = _read(rows)
    assert (state.step, state.epoch, state.loss) == (45063, 9, None)
    assert (row.step, row.epoch, row.loss) == (46063, 9, 3.03)
    assert (check.step, check.epoch, check.loss, check.val_loss) == (50070, 10, None, 3.23)


def test_a_sentence_names_its_counter_by_the_unit_after_it() -> None:
    # mmengine (a Saving checkpoint message) and Ultralytics' closing line
    saving = "2024/05/07 12:39:28 - mmengine - INFO - Saving checkpoint at 1500 iterations"
    assert parse_line(saving).step == 1500
    done = parse_line("32 epochs completed in 0.054 hours.")
    assert (done.epoch, done.step, done.values) == (32, None, {})
    # a count of epochs with no verb of its own is no counter, nor a trajectory's length
    assert parse_line("no improvement observed in last 5 epochs. Stopping.") is None
    assert parse_line("Warning: trajectory cut off by epoch at 56 steps.") is None


def test_a_sentence_that_announces_its_counter() -> None:
    # open_clip's NegCLIP trainer and DeepChem's TensorGraph fit
    assert parse_line(" Start epoch 0").epoch == 0
    ending = parse_line("Ending global_step: 99 Average loss: 103.903, Samples Per Minute: 43824.5")
    assert (ending.step, ending.loss) == (99, 103.903)
    # a setting's key stays a setting: a best or a starting epoch set in a config is no counter
    assert parse_line("start_epoch: 3") is None
    assert parse_line("Best epoch 27") is None


def test_iters_beside_a_loss_is_the_step_and_alone_a_setting() -> None:
    # Time-Series-Library's loop (kwuking/TimeMixer#88)
    row = parse_line("\titers: 500, epoch: 18 | loss: 0.1464421")
    assert (row.step, row.epoch, row.loss) == (500, 18, 0.1464421)
    assert parse_line("max_iters: 500, warmup_iters: 10, loss: 0.5").step is None


def test_a_comma_separated_table_is_read_under_its_header() -> None:
    # DySPN's training log (Kyakaka/DySPN#4): the time and a bracketed lr are no numbers; the
    # RMSE columns are metrics, no loss
    header = "Epoch ,FinishTime     ,LR    ,RMSE_Train ,RMSE_Val"
    rows = [
        "    0 ,04.29_01:45:54 ,0.001 , 1434.0919 ,1103.956",
        "    7 ,04.29_10:21:29 ,0.001 ,  731.0956 ,",
        "    8 ,04.29_12:50:13 ,[0.001]    ,   635.966 , 810.576",
    ]
    assert _read(rows)[0] is None  # no header yet: a row of numbers means nothing
    first, short, bracketed = _read([header, *rows])[1:]
    assert (first.epoch, first.loss, first.values["lr"]) == (0, None, 0.001)
    assert first.values["rmse_train"] == 1434.0919
    assert (short.epoch, bracketed.epoch, "lr" in bracketed.values) == (7, 8, False)
    tracker = ProgressTracker()
    tracker.feed([header, *rows], now=0.0)
    assert tracker.standing().epoch == 8
    assert list(tracker.series["rmse_train"].ys) == [1434.0919, 731.0956, 635.966]


def test_a_bar_with_another_loggers_line_glued_after_it() -> None:
    # Unsloth Studio (unslothai/unsloth#4547): a DeprecationWarning printed with no line break
    glued = (
        " 60%|██████▌    | 18/30 [01:50<00:19,  1.65s/it]/home/datta0/.unsloth/studio/.venv/lib/"
        "python3.13/site-packages/torch/utils/data/_utils/pin_memory.py:57: DeprecationWarning:"
        " The argument 'device' of Tensor.pin_memory() is deprecated."
    )
    bar = parse_line(glued)
    assert (bar.kind, bar.step, bar.total) == ("tqdm", 18, 30)
    assert abs(bar.rate - 1 / 1.65) < 1e-9
    # a glued line that reports progress itself keeps its own step (transformers#14531)
    deepspeed = (
        "  8%|███      | 1999/24128 [1:52:09<20:27:23,  3.33s/it][2021-11-26 03:07:16,494] [INFO]"
        " [logging.py:69:log_dist] [Rank 0] step=2000, skipped=1995, lr=[0.001, 0.001]"
    )
    assert parse_line(deepspeed).step == 2000
