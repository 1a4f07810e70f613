"""The corpus of real command-job files (tests/core/data/jobs) and how azure-ai-ml sees a job.

`rest_form(path)` is what `az ml job create --file path` would send, with every local path
resolved against the file's folder as azure-ai-ml resolves it: two files that point at the same
folders from different places have equal REST forms.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

CORPUS = Path(__file__).parent / "data" / "jobs"


def corpus_jobs() -> Iterator[Path]:
    """Every job file SOURCES lists (other lines there are the files the jobs reference)."""
    for line in (CORPUS / "SOURCES").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        path = CORPUS / line.split("\t")[0]
        data = yaml.safe_load(path.read_text())
        if isinstance(data, dict) and "command" in data:
            yield path


def _remote(text: str) -> bool:
    return "://" in text or text.startswith(("azureml:", "git+", "/subscriptions/"))


def _resolved(text: Any, base: Path) -> Any:
    """A local path as the absolute path it names (load_job has checked that it exists);
    anything else, such as an asset `name@latest` with its `azureml:` stripped, as it is."""
    if not isinstance(text, str) or _remote(text) or not Path(base, text).exists():
        return text
    return str(Path(base, text).resolve())


def rest_form(path: Path) -> dict[str, Any]:
    """The job as azure-ai-ml would PUT it, local paths resolved; raises what load_job raises."""
    from azure.ai.ml import load_job
    from azure.ai.ml.entities import Environment

    warnings.filterwarnings("ignore", message=".*experimental.*")
    logging.getLogger("azure.ai.ml").setLevel(logging.ERROR)
    path = Path(path).resolve()
    base = path.parent
    job = load_job(path)
    job = job._to_job() if hasattr(job, "_to_job") else job
    data = job._to_rest_object().as_dict()
    props = data["properties"]
    if props.get("codeId"):
        props["codeId"] = _resolved(props["codeId"], base)
    env = props.get("environmentId")
    if isinstance(env, Environment):
        props["environmentId"] = dict(env._to_dict())
    for section in ("inputs", "outputs"):
        for value in (props.get(section) or {}).values():
            if isinstance(value, dict) and "uri" in value:
                value["uri"] = _resolved(value["uri"], base)
    return _strip(data)


def _strip(value: Any) -> Any:
    """YAML loading strips `azureml:` prefixes in some places; compare without them."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    if isinstance(value, str):
        return value.removeprefix("azureml:")
    return value


def relative_name(path: Path) -> str:
    return os.path.relpath(path, CORPUS)
