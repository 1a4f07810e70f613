"""MLflow metrics for the chart: series from MLflow's metric histories, labelled by source, and a
sentence (not a traceback) when the optional packages are missing."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

from tui.backends.azureml.metrics import series_from_history
from tui.logs.progress import ProgressTracker, merge_series


def metric(step: int, value: float, timestamp: int = 0) -> SimpleNamespace:
    # The fields of mlflow.entities.Metric that the chart reads.
    return SimpleNamespace(key="loss", value=value, timestamp=timestamp, step=step)


def test_histories_become_series_sorted_by_step_and_labelled_mlflow() -> None:
    found = series_from_history(
        {"loss": [metric(2, 0.5), metric(1, 0.9), metric(2, 0.4, timestamp=5)], "lr": []}
    )
    assert list(found) == ["loss"]  # a metric with no points draws nothing
    assert list(found["loss"].xs) == [1.0, 2.0, 2.0]
    assert list(found["loss"].ys) == [0.9, 0.5, 0.4]
    assert found["loss"].source == "mlflow"


def test_the_log_and_mlflow_share_the_chart_each_named_by_source() -> None:
    log = ProgressTracker("log")
    log.feed(["{'loss': 1.0, 'step': 1}", "{'loss': 0.8, 'step': 2}"], now=0.0)
    mlflow = series_from_history({"loss": [metric(1, 1.01)], "\x1b[2Jbad": [metric(1, 1.0)]})
    merged = merge_series(log.series, mlflow)
    assert sorted(merged) == ["loss (log)", "loss (mlflow)"]


def test_without_the_packages_the_pane_is_told_what_to_install() -> None:
    # A fresh interpreter in which `mlflow` cannot be imported, whatever this one has.
    code = (
        "import sys; sys.modules['mlflow'] = None\n"
        "from types import SimpleNamespace as N\n"
        "from tui.backends.azureml.metrics import MlflowUnavailable, job_metrics\n"
        "try:\n    job_metrics(N(), N(name='job'))\n"
        "except MlflowUnavailable as err:\n    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "MLflow metrics not shown" in out.stdout
    assert "pip install azureml-mlflow" in out.stdout
