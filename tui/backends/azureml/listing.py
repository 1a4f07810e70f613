"""The workspace's newest jobs, for attaching to one: `newest_jobs()` reads `jobs.list` page by
page and keeps what the attach list shows of each (`JobSummary`).

A job azure-ai-ml cannot read (a labeling project, a batch-endpoint job …) is skipped and
counted, never fatal. `azure.*` is imported inside functions only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tui.backends.azureml.status import job_state
from tui.backends.base import JobHandle, JobState
from tui.core.words import counted


@dataclass(frozen=True)
class JobSummary:
    """One line of `jobs.list`: what the attach list shows."""

    handle: JobHandle
    state: JobState
    azure_status: str
    display_name: str
    experiment: str
    created_at: datetime | None
    compute: str = ""
    """The cluster it runs on, without `azureml:` ("" for serverless or when not said)."""
    nodes: int | None = None
    """Its instance count, when the job says one."""


class RecentJobs(list):
    """`JobSummary`s, newest first, and how many jobs were left out as unreadable."""

    skipped: int = 0

    def note(self) -> str:
        """What the attach list says about them ("3 jobs of other kinds not shown"), or ""."""
        n = self.skipped
        return f"{counted(n, 'job')} of other kinds not shown" if n else ""


def azure_status(entity: Any) -> str:
    """The job's Azure ML status as Azure spells it (`jobs.list` gives an enum, `get` a str)."""
    status = getattr(entity, "status", None)
    return str(getattr(status, "value", status) or "")


def newest_jobs(ml_client: Any, handle: Callable[[Any], JobHandle], limit: int) -> RecentJobs:
    """The newest `limit` jobs of the workspace, each with `handle(entity)`; pages are asked
    for one at a time, only as far as `limit` needs."""
    found = RecentJobs()
    for rest in _job_pages(ml_client):
        entity = _parse_job(rest)
        if entity is None or not getattr(entity, "name", None):
            found.skipped += 1
            continue
        state, _ = job_state(azure_status(entity))
        created = getattr(getattr(entity, "creation_context", None), "created_at", None)
        found.append(
            JobSummary(
                handle(entity),
                state,
                azure_status(entity),
                str(getattr(entity, "display_name", None) or ""),
                str(getattr(entity, "experiment_name", None) or ""),
                created if isinstance(created, datetime) else None,
                str(getattr(entity, "compute", None) or "").removeprefix("azureml:"),
                _instance_count(entity),
            )
        )
        if len(found) >= limit:
            break
    found.sort(key=lambda s: s.created_at or datetime.min.astimezone(), reverse=True)
    return found


def _instance_count(entity: Any) -> int | None:
    count = getattr(getattr(entity, "resources", None), "instance_count", None)
    return count if isinstance(count, int) and count > 0 else None


def _job_pages(ml_client: Any) -> Iterator[Any]:
    """The workspace's jobs as the service sent them (REST objects, unparsed), page by page.

    azure-ai-ml's `jobs.list()` parses each page whole: one job of a type it does not know
    raises for the page (`JobException`), so the REST list is read here and each job parsed
    on its own (`_parse_job`). Without that client (another SDK version), `jobs.list()`.
    """
    jobs = ml_client.jobs
    rest = getattr(getattr(jobs, "service_client_01_2024_preview_arm", None), "jobs", None)
    scope = getattr(jobs, "_operation_scope", None)
    if rest is None or scope is None:
        yield from jobs.list()
        return
    yield from rest.list(
        scope.resource_group_name,
        jobs._workspace_name,
        cls=lambda objs: objs,
        **getattr(jobs, "_kwargs", {}),
    )


def _parse_job(rest: Any) -> Any:
    """An azure-ai-ml `Job` from a REST job (or an already parsed one); None when it cannot be
    read: `jobs.list()` itself yields None for some (`JobParsingError`) and raises for types it
    does not know (`JobException: Unsupported job type Labeling`)."""
    if rest is None:
        return None
    from azure.ai.ml.entities import Job

    if isinstance(rest, Job):
        return rest
    try:
        return Job._from_rest_object(rest)
    except Exception:  # any job azure-ai-ml cannot read is one the user cannot attach to
        return None
