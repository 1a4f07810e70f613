"""`AzureMLBackend`: submit a plan with azure-ai-ml, follow its status and every rank's log, cancel.

```python
backend = AzureMLBackend()                          # workspace from env or config.json
for line in backend.preflight(p): print(line)       # workspace, sign-in, cluster and quota check
job = backend.submit(p)                             # JobHandle(name, studio URL)
backend.status(job).state                           # JobState.RUNNING …
backend.log_sources(job)["user_logs/std_log_process_3.txt"]   # an HTTP Range source
backend.cancel(job)
```
The job is `azure.ai.ml.command(...)` built from `sdk_job(plan)`, the same tree of calls the
Python export prints, made into objects here. Its name is chosen before the first request, so
a retried submit (by the SDK after a lost response, or by the user after an error) finds the job
it created instead of making a second one. Every method blocks on the network: call it from a
thread worker. `azure.*` is imported inside functions only (azure.ai.ml costs over a second).

This class holds the client, the sign-in and what it remembers per job; the work is beside it:
`submit` (names and retries), `status` and `failure` (state, a failure's error and log tails),
`logs`, `listing` (the attach list), `compute` and `create` (clusters), `errors`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any

from tui.backends.azureml.arm import WRONG_FIELD, Choices, list_choices, problems
from tui.backends.azureml.calls import build
from tui.backends.azureml.compute import ComputeCheck, check_compute, compute_name
from tui.backends.azureml.create import POLL_SECONDS, create_cluster
from tui.backends.azureml.errors import azure_errors, explain, one_line, where_set
from tui.backends.azureml.failure import failure_tails, run_error
from tui.backends.azureml.listing import RecentJobs, azure_status, newest_jobs
from tui.backends.azureml.logs import (
    SHARE_LISTING_FOR,
    LogFolder,
    RunLogs,
    list_datastore_logs,
    open_log_folder,
)
from tui.backends.azureml.status import build_status, job_state
from tui.backends.azureml.submit import job_fingerprint, new_job_name, was_refused
from tui.backends.azureml.workspace import (
    SIGN_IN_TIMEOUT,
    CachedCredential,
    Workspace,
    check_sign_in,
    default_credential,
    find_workspace,
    quiet_azure_logging,
    remember,
)
from tui.backends.base import BackendError, JobHandle, JobNotFound, JobState, JobStatus
from tui.core.job_checks import submit_problems
from tui.logs.names import rank_logs
from tui.planning.plan import LaunchPlan
from tui.planning.sdk import Call, sdk_job

_RUNNING = {"Running", "Finalizing", "CancelRequested", "NotResponding", "Starting"}
_ENDED = {"Completed", "Failed", "Canceled"}


class AzureMLBackend:
    """Jobs in one Azure ML workspace.

    `workspace` (or the three flags) names it; otherwise it is found in the environment or a
    config.json on first use. `credential` is any azure-identity style credential (tests pass a
    static one); by default `DefaultAzureCredential` without the slow sources, checked within
    `sign_in_timeout` seconds. `client_kwargs` go to `MLClient` (e.g. `transport=`, `retry_total=`).
    """

    name = "azureml"

    def __init__(
        self,
        workspace: Workspace | None = None,
        credential: Any = None,
        *,
        subscription: str | None = None,
        resource_group: str | None = None,
        workspace_name: str | None = None,
        sign_in_timeout: float = SIGN_IN_TIMEOUT,
        client_kwargs: dict[str, Any] | None = None,
    ) -> None:
        self._workspace = workspace
        self._flags = (subscription, resource_group, workspace_name)
        self._credential = credential
        self._signed_in = False
        self.sign_in_timeout = sign_in_timeout
        self.client_kwargs = dict(client_kwargs or {})
        self._client: Any = None
        self._lock = threading.RLock()
        self._pending: dict[str, str] = {}
        """Job fingerprint → the name of a submit whose outcome is unknown (reused on retry)."""
        self._logs: dict[str, RunLogs] = {}
        self._final: dict[str, JobStatus] = {}
        self._folders: dict[str, LogFolder | None] = {}
        """Job name → its log folder in the artifact datastore (None: it cannot be listed)."""
        self._sizes: dict[str, str | None] = {}
        """Cluster name → its VM size (None: not a cluster, or it has none)."""

    # ---- workspace, sign-in, client -----------------------------------------------------

    @property
    def workspace(self) -> Workspace:
        """The workspace (no network); BackendError says how to configure one."""
        if self._workspace is None:
            self._workspace = find_workspace(*self._flags)
        return self._workspace

    def sign_in(self) -> None:
        """Get a token within `sign_in_timeout` s, or raise BackendError saying what to do."""
        with self._lock:
            if self._signed_in:
                return
            if self._credential is None:
                self._credential = CachedCredential(default_credential())
            elif not isinstance(self._credential, CachedCredential):
                self._credential = CachedCredential(self._credential)
            check_sign_in(self._credential, self.sign_in_timeout)
            self._signed_in = True

    @property
    def ml_client(self) -> Any:
        """The `MLClient`, made after the workspace is known and the sign-in works."""
        with self._lock:
            if self._client is None:
                ws = self.workspace
                self.sign_in()
                from azure.ai.ml import MLClient

                quiet_azure_logging()
                self._client = MLClient(
                    self._credential,
                    ws.subscription_id,
                    ws.resource_group,
                    ws.name,
                    **self.client_kwargs,
                )
            return self._client

    def workspace_choices(self) -> tuple[Workspace | None, Choices]:
        """The workspace found so far (flags, env, config.json, the remembered one; None if
        none) and every workspace the signed-in identity can see, for the Submit step's form."""
        try:
            found: Workspace | None = self.workspace
        except BackendError:
            found = None
        self.sign_in()
        return found, list_choices(self._credential)

    def use_workspace(self, ws: Workspace) -> None:
        """Work in `ws` from now on (the form's choice), and remember it for the next run."""
        with self._lock:
            if ws != self._workspace:
                self._workspace, self._client = ws, None
        remember(ws)

    def preflight(self, plan: LaunchPlan) -> Iterator[str]:
        """Lines for the Submit step, one at a time: workspace, sign-in, cluster, quota.

        Raises BackendError (one line with the fix) at the first thing that stops a submit.
        """
        yield f"Workspace {self.workspace.describe()}"
        self.sign_in()
        yield "Signed in to Azure."
        yield from self.check_compute(plan).lines()

    def check_compute(self, plan: LaunchPlan) -> ComputeCheck:
        """The cluster's size, node limit and quota against the plan (see `compute`).

        Where Azure says a workspace field is wrong, every wrong field is said at once (from
        what the identity can see), not one per round of fixes."""
        try:
            return check_compute(self.ml_client, plan, self.workspace)
        except BackendError as err:
            raise self._every_wrong_field(err) from None

    def _every_wrong_field(self, err: BackendError) -> BackendError:
        """`err` if it is not about the workspace's coordinates or only one of them is wrong;
        else one error naming each wrong field, what is wrong and where it was set."""
        if not WRONG_FIELD.match(str(err)) or self._credential is None:
            return err
        ws = self.workspace
        try:
            choices = list_choices(self._credential)
        except Exception:  # the lists are a better answer, not a needed one
            return err
        wrong = problems(choices, ws.subscription_id, ws.resource_group, ws.name)
        if len(wrong) < 2:
            return err
        said = "; ".join(f"{field}: {why} ({where_set(ws, field)})" for field, why in wrong.items())
        return BackendError(f"Azure ML workspace {ws.name}: {said}")

    def create_compute(
        self,
        cluster: Call,
        progress: Callable[[str], None] = lambda line: None,
        poll_seconds: float = POLL_SECONDS,
    ) -> str:
        """Create the cluster `cluster` (from `tui.planning.sdk.sdk_cluster`); see `create`."""
        return create_cluster(self.ml_client, cluster, self.workspace, progress, poll_seconds)

    # ---- the protocol -------------------------------------------------------------------

    def submit(self, plan: LaunchPlan, name: str | None = None) -> JobHandle:
        """Create the job; returns its handle (name, Studio URL) once Azure ML accepted it.

        Submitting the same plan again after a failure whose outcome is unknown (a lost
        response, a timeout, a server error) reuses the name, and returns the job if the first
        attempt created it.
        """
        if plan.target.kind != "azureml":
            raise BackendError("this plan was made for this machine; plan it for Azure ML")
        refused = submit_problems(plan.spec)  # preview and export only warn about these
        if refused:
            raise BackendError(refused[0])
        call = sdk_job(plan)
        fingerprint = job_fingerprint(call)
        ws = self.workspace
        with self._lock:
            reused = name is None and fingerprint in self._pending
            name = name or self._pending.get(fingerprint) or call.kwargs.get("name")
            name = name or new_job_name(plan)
        ml = self.ml_client
        if reused:
            existing = self._get_job(name)
            if existing is not None:
                self._pending.pop(fingerprint, None)
                return self._handle(existing)
        try:
            job = build(replace(call, kwargs={**call.kwargs, "name": name}))
        except Exception as err:
            raise explain(err, ws, f"building job {name}") from None
        with self._lock:
            self._pending[fingerprint] = name
        try:
            created = ml.jobs.create_or_update(job)
        except Exception as err:
            if was_refused(err):
                self._pending.pop(fingerprint, None)
                raise explain(
                    err, ws, f"submitting job {name}", compute=compute_name(plan)
                ) from None
            problem = explain(err, ws, f"submitting job {name}")
            raise BackendError(
                f"{problem}; it may have been created: submit again to find it "
                "(it cannot run twice)"
            ) from None
        self._pending.pop(fingerprint, None)
        return self._handle(created)

    def status(self, job: JobHandle) -> JobStatus:
        """`jobs.get` for the state, the run's details for times, the error and the logs."""
        self._check(job)
        final = self._final.get(job.name)
        if final is not None:
            return final
        ws = self.workspace
        ml = self.ml_client
        with azure_errors(ws, f"reading job {job.name}", job=job.name):
            entity = ml.jobs.get(job.name)
        details = self._details(job.name)
        files = dict(getattr(details, "log_files", None) or {})
        if rank_logs(files) or (files and getattr(details, "status", None) in _ENDED):
            # log_sources() right after needs no new call. A listing without rank logs is kept
            # only once the job has ended: while it is starting or running `_log_files` adds the
            # datastore's (a Preparing job's listing, seeded, hid them for a second)
            self._run_logs(job.name).seed(files)
        service_error = run_error(details)
        error = one_line(service_error.message or service_error.code)
        state, _ = job_state(azure_status(entity))
        tails: dict[str, str] | None = None
        if state is JobState.FAILED:
            tails = failure_tails(service_error.message or error, files)
        created = getattr(getattr(entity, "creation_context", None), "created_at", None)
        status = build_status(
            azure_status(entity),
            created_at=created if isinstance(created, datetime) else None,
            started_at=getattr(details, "start_time_utc", None),
            ended_at=getattr(details, "end_time_utc", None),
            error=error,
            log_names=files,
            tails=tails,
            service_error=service_error,
        )
        if status.is_terminal:
            self._final[job.name] = status
        return status

    def log_sources(self, job: JobHandle) -> dict[str, Any]:
        """Every log Azure ML lists for the job, rank logs first; each re-reads its URL on 403."""
        self._check(job)
        logs = self._run_logs(job.name)
        return logs.sources(logs.files(max_age=SHARE_LISTING_FOR))

    def log_sizes(self, job: JobHandle) -> dict[str, int] | None:
        """Every log's size in bytes from one listing of the job's log folder in the artifact
        datastore (one List Blobs call per 5,000 logs), for the rank strip's poll; None when
        that folder cannot be listed (no default output, an identity-only datastore): ask each
        log's `size()` then. The datastore is looked up once per job; an expired SAS token is
        looked up again once."""
        self._check(job)
        for attempt in (0, 1):
            folder = self._log_folder(job.name)
            if folder is None:
                return None
            try:
                with azure_errors(self.workspace, f"listing the logs of {job.name}", job=job.name):
                    return folder.sizes()
            except BackendError:
                with self._lock:
                    self._folders.pop(job.name, None)
                folder.close()
                if attempt:
                    raise
        return None

    def cancel(self, job: JobHandle, timeout: float = 120.0) -> None:
        """Ask Azure ML to cancel; returns when it accepted (the job then goes Canceled)."""
        self._check(job)
        if self.status(job).is_terminal:
            return
        ws = self.workspace
        with azure_errors(ws, f"canceling job {job.name}", job=job.name):
            poller = self.ml_client.jobs.begin_cancel(job.name, polling_interval=1)
            poller.result(timeout=timeout)

    # ---- more than the protocol ---------------------------------------------------------

    def handle(self, name: str) -> JobHandle:
        """The job called `name` in the workspace; raises JobNotFound."""
        entity = self._get_job(name)
        if entity is None:
            raise JobNotFound(f"no job named {name} in workspace {self.workspace.name}")
        return self._handle(entity)

    def recent_jobs(self, limit: int = 25) -> RecentJobs:
        """The newest `limit` jobs of the workspace (`jobs.list`), for attaching to one.

        Pages are asked for one at a time, only as far as `limit` needs. A job azure-ai-ml cannot
        read (a labeling project, a batch-endpoint job …) is skipped and counted, never fatal.
        """
        with azure_errors(self.workspace, "listing jobs"):
            return newest_jobs(self.ml_client, self._handle, limit)

    def compute_size(self, compute: str) -> str | None:
        """The VM size of the cluster called `compute` (one `compute.get`, then remembered);
        None when it has none (serverless, deleted) or cannot be read."""
        with self._lock:
            if compute in self._sizes:
                return self._sizes[compute]
        try:
            with azure_errors(self.workspace, f"looking up compute {compute}", compute=compute):
                size = getattr(self.ml_client.compute.get(compute), "size", None)
        except BackendError:
            size = None
        with self._lock:
            return self._sizes.setdefault(compute, str(size) if size else None)

    # ---- inside -------------------------------------------------------------------------

    def _check(self, job: JobHandle) -> None:
        if job.backend != self.name:
            raise BackendError(f"job {job.name} belongs to the {job.backend} backend, not azureml")

    def _handle(self, entity: Any) -> JobHandle:
        return JobHandle(self.name, entity.name, str(getattr(entity, "studio_url", "") or ""))

    def _get_job(self, name: str) -> Any:
        """The job entity, or None when the workspace has no job of that name."""
        try:
            with azure_errors(self.workspace, f"reading job {name}", job=name):
                return self.ml_client.jobs.get(name)
        except JobNotFound:
            return None

    def _details(self, name: str) -> Any:
        with azure_errors(self.workspace, f"reading the run details of {name}", job=name):
            return self.ml_client.jobs._runs_operations.get_run_details(name)

    def _run_logs(self, name: str) -> RunLogs:
        with self._lock:
            if name not in self._logs:
                self._logs[name] = RunLogs(lambda: self._log_files(name))
            return self._logs[name]

    def _log_folder(self, name: str) -> LogFolder | None:
        with self._lock:
            if name in self._folders:
                return self._folders[name]
        with azure_errors(self.workspace, f"finding the log folder of {name}", job=name):
            folder = open_log_folder(self.ml_client, self.ml_client.jobs.get(name))
        with self._lock:
            return self._folders.setdefault(name, folder)

    def _log_files(self, name: str) -> dict[str, str]:
        """Run History's `logFiles`; while a running job's listing has no user logs yet (users
        report `system_logs/` listed and `user_logs/` only once the job ends), the artifact
        datastore's folder is listed too and merged in (Run History's URL wins for a name in
        both)."""
        details = self._details(name)
        files = dict(getattr(details, "log_files", None) or {})
        if getattr(details, "status", None) not in _RUNNING:
            return files
        if rank_logs(files):
            return files
        try:
            with azure_errors(self.workspace, f"listing the logs of {name}", job=name):
                stored = list_datastore_logs(self.ml_client, self.ml_client.jobs.get(name))
        except BackendError:
            return files
        return {**stored, **files}
