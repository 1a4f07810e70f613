"""A job's MLflow metrics from the workspace's tracking store, for the job screen's chart.

Azure ML is an MLflow tracking server: what a script logs with `mlflow.log_metric` is stored
against a run whose id is the job's name. It is read with MLflow's own client
(`MlflowClient.get_run` / `get_metric_history`) pointed at the workspace's
`mlflow_tracking_uri`; the `azureml-mlflow` plugin signs those requests. Both packages are
optional: without them `MlflowUnavailable` says what to install, and the chart shows what the
log says. Imported lazily by the job screen, only for Azure ML jobs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tui.logs.progress import Series

INSTALL = "pip install azureml-mlflow mlflow-skinny"


class MlflowUnavailable(Exception):
    """The packages to read MLflow metrics are not installed (the message says which)."""


def series_from_history(histories: dict[str, Iterable[Any]]) -> dict[str, Series]:
    """Series labelled "mlflow" from metric histories (objects with `step`, `timestamp`,
    `value`, as MLflow's `Metric`), each sorted by step then time."""
    found: dict[str, Series] = {}
    for key, history in histories.items():
        if not key.isprintable():
            continue  # a name with control characters never reaches the terminal
        series = Series(key, source="mlflow")
        for metric in sorted(history, key=lambda m: (m.step, m.timestamp)):
            series.add(float(metric.step), float(metric.value))
        if len(series.ys):
            found[key] = series
    return found


def job_metrics(backend: Any, handle: Any) -> dict[str, Series]:
    """The metrics job `handle` logged to MLflow, by name (empty: it logged none yet)."""
    try:
        from mlflow.tracking import MlflowClient
    except ImportError:
        raise MlflowUnavailable(
            f"MLflow metrics not shown: the packages are not installed ({INSTALL})"
        ) from None
    try:
        import azureml.mlflow  # noqa: F401  (registers the azureml:// tracking scheme)
    except ImportError:
        raise MlflowUnavailable(
            f"MLflow metrics not shown: azureml-mlflow is not installed ({INSTALL})"
        ) from None
    ml_client = backend.ml_client
    workspace = ml_client.workspaces.get(ml_client.workspace_name)
    client = MlflowClient(tracking_uri=workspace.mlflow_tracking_uri)
    run = client.get_run(handle.name)
    histories = {key: client.get_metric_history(handle.name, key) for key in run.data.metrics}
    return series_from_history(histories)
