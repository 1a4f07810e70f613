"""Layouts of the nineteenth fresh set (2026-11-28s) folded into the corpus's dev half (issue
37): a header between commas over rows between tabs, a step glued to its word, and a line in
Chinese. Each line is from a stream of tests/logs/data/progress/fresh/2026-11-28s.txt, as
printed (the source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader, parse_line


def test_a_header_between_commas_reads_rows_between_tabs():
    # aobaruwa/Chatbot_Compressor logs/train_log.txt: a CSV header, then tab-separated rows
    reader = LineReader()
    assert reader.read("epoch,step,grad_step,tr_loss,tr_ppl") is None
    p = reader.read("1\t16\t1\t7.5450\t1.9412")
    assert p is not None and (p.loss, p.step, p.epoch) == (7.545, 16, 1.0)


def test_a_step_glued_to_its_word():
    # a logger's dict-like record (2026-11-28s, stream 28)
    p = parse_line(
        "2019-11-27 17:20:04,674-lstm_logger-{train:epoch1,step3,train_loss: 99.1358871459961}"
    )
    assert p is not None and (p.loss, p.step, p.epoch) == (99.1358871459961, 3, 1.0)


def test_a_line_in_chinese_reads_its_metric_words():
    # a classifier's progress in Chinese (2026-11-28s, stream 10): batch, epoch, loss, accuracy
    p = parse_line("当前Batch：6000/6035 | 当前epoch:0/50 | 当前损失值：3.767 | 当前准确率：34.70%")
    assert p is not None and (p.loss, p.step, p.epoch) == (3.767, 6000, 0.0)
    assert parse_line("模型已保存到 checkpoints/epoch_3.pth") is None  # a sentence: nothing read
