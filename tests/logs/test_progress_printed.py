"""What the parser never invents, as `dtrain-tui metrics` writes it: a point whose log printed no
step has an empty step in CSV and `null` in JSON, beside a separate index; the same for epoch."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tui.cli.metrics import cmd_metrics
from tui.logs.progress import ProgressTracker

# A Keras-style summary per epoch with no step, then a script that prints its own steps.
NO_STEP = """\
Epoch 1 done - loss: 0.9 - accuracy: 0.61
Epoch 2 done - loss: 0.7 - accuracy: 0.70
loss: 0.65 accuracy: 0.72
"""


def _metrics(tmp_path: Path, text: str, fmt: str, capsys) -> str:
    log = tmp_path / "train.log"
    log.write_text(text)

    class Args:
        name, rank, format, target = str(log), None, fmt, "local"

    assert cmd_metrics(Args()) == 0
    return capsys.readouterr().out


def test_csv_leaves_a_step_and_an_epoch_the_log_never_printed_empty(tmp_path, capsys) -> None:
    rows = list(csv.reader(io.StringIO(_metrics(tmp_path, NO_STEP, "csv", capsys))))
    assert rows[0] == ["metric", "step", "epoch", "value", "index"]
    loss = [row for row in rows if row[0] == "loss"]
    # the third line prints no epoch either, but the stream's last said 2: it is still epoch 2
    assert loss == [["loss", "", "1", "0.9", "1"], ["loss", "", "2", "0.7", "2"],
                    ["loss", "", "2", "0.65", "3"]]  # fmt: skip


def test_json_has_null_steps_and_an_index_of_its_own(tmp_path, capsys) -> None:
    text = "loss: 2.0 accuracy: 0.1\nloss: 1.5 accuracy: 0.2\nstep 7 | loss 1.25\n"
    data = json.loads(_metrics(tmp_path, text, "json", capsys))
    loss = data["series"]["loss"]
    assert loss["step"] == [None, None, 7] and loss["epoch"] == [None, None, None]
    assert loss["index"] == [1, 2, 3] and loss["value"] == [2.0, 1.5, 1.25]
    assert data["series"]["accuracy"]["index"] == [1, 2]


def test_a_printed_step_is_written_as_printed_and_the_index_counts_lines(tmp_path, capsys) -> None:
    text = "".join(f"step {s} | loss {1 / s:.3f}\nnoise line\n" for s in (10, 20, 30))
    rows = list(csv.reader(io.StringIO(_metrics(tmp_path, text, "csv", capsys))))
    assert [row[1] for row in rows[1:]] == ["10", "20", "30"]
    assert [row[4] for row in rows[1:]] == ["1", "2", "3"]


def test_a_step_counted_within_each_epoch_is_the_printed_one() -> None:
    """`[e][i/n]`: the step column is `i` as printed (with the epoch beside it), not a step
    computed across epochs; the standing still counts across epochs for the ETA."""
    tracker = ProgressTracker()
    tracker.feed(
        [
            "Epoch [1][50/100]  lr: 0.01, loss: 0.9",
            "Epoch [1][100/100]  lr: 0.01, loss: 0.8",
            "Epoch [2][50/100]  lr: 0.01, loss: 0.7",
        ],
        now=0.0,
    )
    loss = tracker.series["loss"]
    assert list(loss.xs) == [50.0, 100.0, 50.0] and list(loss.es) == [1.0, 1.0, 2.0]
    assert not loss.stepped and tracker.standing().step == 150
