"""Only recurring numbers become series: a number on a line whose template never recurs (an
environment dump, a configuration print, a banner) is no metric, unless its name says it is one;
a name printed again by lines of one template is, its first point included."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tui.cli.metrics import cmd_metrics
from tui.logs.progress import ProgressTracker
from tui.logs.progress_templates import template

# What the product's examples printed first (issue 37), then a configuration dict, then steps.
ENV = (
    'DTRAIN_ENV {"ACCELERATE_DEBUG_MODE": "0", "HOME": "/root", "PIP_DEFAULT_TIMEOUT": "180", '
    '"RANK": "0", "SHLVL": "1", "WORLD_SIZE": "4"}'
)
LOG = [
    ENV,
    "{'batch_size': 32, 'dropout': 0.1, 'hidden': 768}",
    "{'loss': '2.769', 'kl_weight': '0.5', 'epoch': '0.125'}",
    "{'loss': '2.774', 'kl_weight': '0.75', 'epoch': '0.25'}",
    "{'loss': '2.768', 'kl_weight': '1.0', 'epoch': '0.375'}",
]


def _metrics(tmp_path: Path, fmt: str, capsys) -> str:
    log = tmp_path / "train.log"
    log.write_text("\n".join(LOG) + "\n")

    class Args:
        name, rank, format, target = str(log), None, fmt, "local"

    assert cmd_metrics(Args()) == 0
    return capsys.readouterr().out


def test_the_environment_line_and_a_configuration_print_are_no_series_in_csv(
    tmp_path, capsys
) -> None:
    rows = list(csv.reader(io.StringIO(_metrics(tmp_path, "csv", capsys))))
    assert {row[0] for row in rows[1:]} == {"loss", "kl_weight"}
    # kl_weight's first point was held until its template recurred, then kept, in order
    assert [row[3] for row in rows if row[0] == "kl_weight"] == ["0.5", "0.75", "1.0"]


def test_the_environment_line_is_no_series_in_json(tmp_path, capsys) -> None:
    series = json.loads(_metrics(tmp_path, "json", capsys))["series"]
    assert sorted(series) == ["kl_weight", "loss"]
    # the index numbers every line that printed values, the two that made no series too
    assert series["kl_weight"]["index"] == [3, 4, 5]


def test_a_known_metric_name_is_a_series_at_its_first_point() -> None:
    tracker = ProgressTracker()
    tracker.feed(["Final - accuracy: 0.93 - dropout: 0.1", "{'eval_f1': 0.5}"], now=0.0)
    assert sorted(tracker.series) == ["accuracy", "eval_f1"]


def test_a_template_masks_the_numbers_and_the_glyphs() -> None:
    assert template("step 9 | loss 2.5e-3") == template("step 10  | loss 2.25") == "step loss"
    bar = "Epoch 1:  50%|█████     | 165/331 [00:02<00:02, 80.00it/s, kl=0.2]"
    assert template(bar) == template(bar.replace("█████     ", "██████    ").replace("165", "9"))
    assert template(ENV) != template(ENV.replace("HOME", "USER"))
