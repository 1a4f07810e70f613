"""Layouts of the fifteenth fresh set (2026-11-28o) folded into the corpus's dev half (issue 37):
a measure named before `at <counter> N` and its value after a colon, `count` as a step beside a
loss, and one part of a loss printed alone on a line after the stream has printed the whole loss.
Each line is from a stream of tests/logs/data/progress/fresh/2026-11-28o.txt, as printed (the
source is named beside it)."""

from __future__ import annotations

from tui.logs.progress import LineReader, parse_line


def test_a_measure_before_at_step_n_takes_the_value_after_the_colon() -> None:
    # A Tacotron-style trainer's train log (2026-11-28o.txt#10)
    p = parse_line("2017-08-18 02:43:53,914:\tLoss at step 1: 8.499695")
    assert p is not None and (p.loss, p.step) == (8.499695, 1)
    q = parse_line("Recording summary at step 0")  # a counter alone, no value to take
    assert q is None or q.loss is None


def test_count_is_a_step_beside_a_loss_and_nothing_alone() -> None:
    # INFO:root:count: N, loss:x (2026-11-28o.txt#13)
    p = parse_line("INFO:root:count: 50, loss:675.150940: ")
    assert p is not None and (p.step, p.loss) == (50, 675.15094)
    assert (parse_line("count: 12") or parse_line("x")) is None


def test_a_part_alone_after_the_whole_loss_is_one_term_not_the_loss() -> None:
    # 17314796423/WS_DAN_SAC train.log (2026-11-28o.txt#2)
    reader = LineReader()
    whole = reader.read(
        "Epoch: [39][210/250]\tTime 1.164 (1.167)\tData 0.369 (0.370)\tLoss 0.3977 (0.6083)"
    )
    assert whole is not None and (whole.loss, whole.step, whole.epoch) == (0.3977, 210, 39.0)
    part = reader.read("cos_sim_loss  0.062 (0.059)")
    assert part is None or part.loss is None
    fresh = LineReader().read("cos_sim_loss  0.062 (0.059)")  # no whole loss before it
    assert fresh is not None and fresh.loss == 0.062
