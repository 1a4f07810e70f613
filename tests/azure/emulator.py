"""An Azure ML workspace on loopback, for the real azure-ai-ml client.

HTTPS with a test CA (trustme); the SDK reaches it through `AZUREML_DEV_URL_MFE` (ARM) and the
workspace's discovery URL (Run History). It answers what dtrain-tui's backend and azure-ai-ml
1.35 ask for, in the shapes azure-ai-ml accepts (see `../shared/reference/azureml.md` §3.4, §3.6):

- ARM: the workspace, jobs (PUT creates, GET, list, cancel as a 202 + Location operation),
  computes, VM sizes and usages, code versions (the `?hash=` lookup answers with an existing
  version, so the SDK uploads nothing; a registered folder's files are in Azurite where its
  `codeUri` says, see `emulator_code`), the artifact and blob datastores and their secrets;
- discovery (`api` points back here) and Run History run details, whose `logFiles` are SAS URLs
  into Azurite, valid for `sas_lifetime` seconds (Azurite refuses expired ones with 403).

The answers are shaped from what the real service answered (`data/SOURCES.md` lists the recorded
bodies): a created job's first status is `Starting` (201); cancel answers 202 + `Location` or
200 (`cancel_status`) and the job may stay `CancelRequested` for `cancel_delay` seconds; the job
list comes in pages of `page_size` with `nextLink`, and may hold jobs azure-ai-ml cannot read
(`add_foreign_job`); `listSecrets` answers the `expirableSecret` SAS form
(`{"secretsType": "Sas", "sasToken": "?sv=…"}`), the account key, or nothing for an identity-only
datastore (`datastore_secrets`: "Sas", "AccountKey", "None"); usages
carry the names Azure ML gives them ("Standard NCADSA100v4 Family Cluster Dedicated vCPUs", "Total
Cluster Dedicated Regional vCPUs"); Run History's 404 is `UserError` "Run X was not found"; any of
the 14 `JobStatus` states can be forced (`set_status`); a running job's Run History listing can
leave out `user_logs/` (`user_logs_listed_while_running`); logs can carry the older runtime's
names (`legacy_logs`: `azureml-logs/70_driver_log_<rank>.txt`).

Every request needs the test bearer token. Jobs run for real when `run_jobs` is on (see
`emulator_runs`). Faults can be injected per request (`fail_next`). Every request is recorded.
"""

from __future__ import annotations

import re
import ssl
import threading
from datetime import datetime, timedelta, timezone
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

import trustme
from azure.storage.blob import BlobSasPermissions, generate_blob_sas

from tests.azure.emulator_code import upload_code
from tests.azure.emulator_compute import ComputeCreations
from tests.azure.emulator_http import PROVIDER, TOKEN, Fault, Handler, Recorded, error
from tests.azure.emulator_runs import CONTAINER, EmulatedRun
from tests.logs.azurite import DEV_ACCOUNT, DEV_KEY, Azurite
from tui.backends.local import LocalBackend

__all__ = ["TOKEN", "Fault", "Recorded", "WorkspaceEmulator"]


def iso(when: datetime | None) -> str | None:
    return when.astimezone(timezone.utc).isoformat().replace("+00:00", "Z") if when else None


class WorkspaceEmulator:
    """One workspace, its clusters and its jobs, served over HTTPS on 127.0.0.1."""

    def __init__(
        self,
        azurite: Azurite,
        root: Path,
        *,
        subscription: str = "00000000-0000-0000-0000-000000000001",
        resource_group: str = "rg-test",
        workspace: str = "ws-test",
        location: str = "westeurope",
    ) -> None:
        self.azurite = azurite
        self.root = root
        self.subscription = subscription
        self.resource_group = resource_group
        self.workspace = workspace
        self.location = location
        self.ca = trustme.CA()
        self.ca_file = root / "emulator-ca.pem"
        self.run_jobs = False
        self.sas_lifetime = 3600.0
        self.pad = 0
        self.forbidden = False
        self.list_logs_in_run_history = True
        self.user_logs_listed_while_running = True
        self.legacy_logs = False
        self.cancel_status = 202
        self.cancel_delay = 0.0
        self.page_size = 50
        self.datastore_secrets = "Sas"
        self.other_subscriptions: dict[str, str] = {}
        self.listed_workspaces: dict[str, list[tuple[str, str]]] = {}
        self.unlistable: set[str] = set()
        """The workspace form's lists (see emulator_arm)."""
        self.foreign_jobs: list[dict[str, Any]] = []
        """Job bodies of kinds dtrain-tui does not make (listed, never run)."""
        self.computes: dict[str, dict[str, Any]] = {}
        self.vm_sizes: list[dict[str, Any]] = []
        self.usages: list[dict[str, Any]] = []
        self.code_dirs: dict[str, Path] = {}
        """Content hash → the folder whose code it is (what the SDK would have uploaded)."""
        self.code_names: dict[str, str] = {}
        self.runs: dict[str, EmulatedRun] = {}
        self.requests: list[Recorded] = []
        self.unknown: list[str] = []
        self.faults: list[Fault] = []
        self.operations: dict[str, EmulatedRun] = {}
        self.creations = ComputeCreations(self)
        """Compute clusters created through the API (see emulator_compute)."""
        self.local = LocalBackend(root / "jobs", gpus=[], grace=2.0)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.add_defaults()

    # ---- set-up -------------------------------------------------------------------------

    def add_defaults(self) -> None:
        self.add_compute("gpu-cluster", "Standard_ND96asr_v4", max_nodes=4)
        self.add_compute("small-cluster", "Standard_NC24ads_A100_v4", max_nodes=1)
        self.vm_sizes = [
            {
                "name": "Standard_ND96asr_v4",
                "family": "standardNDASv4_A100Family",
                "vCPUs": 96,
                "gpus": 8,
            },
            {
                "name": "Standard_NC24ads_A100_v4",
                "family": "StandardNCADSA100v4Family",
                "vCPUs": 24,
                "gpus": 1,
            },
        ]
        self.set_quota("standardNDASv4_A100Family", used=96, limit=480)
        self.set_quota("StandardNCADSA100v4Family", used=0, limit=24)
        self.set_quota(REGIONAL_DEDICATED, used=96, limit=1000)
        self.set_quota(REGIONAL_LOW_PRIORITY, used=0, limit=100)

    def add_compute(self, name: str, size: str, *, max_nodes: int, min_nodes: int = 0) -> None:
        self.computes[name] = {
            "id": f"{self.ws_id}/computes/{name}",
            "name": name,
            "type": f"{PROVIDER}/workspaces/computes",
            "location": self.location,
            "properties": {
                "computeType": "AmlCompute",
                "computeLocation": self.location,
                "provisioningState": "Succeeded",
                "properties": {
                    "vmSize": size,
                    "vmPriority": "Dedicated",
                    "scaleSettings": {
                        "minNodeCount": min_nodes,
                        "maxNodeCount": max_nodes,
                        "nodeIdleTimeBeforeScaleDown": "PT120S",
                    },
                },
            },
        }

    def set_quota(self, family: str, *, used: int, limit: int, low_priority: bool = False) -> None:
        """The vCPU usage of a VM family (`standardNDASv4_A100Family`), or of the region
        (`REGIONAL_DEDICATED`, `REGIONAL_LOW_PRIORITY`), named the way Azure ML names it."""
        if family in (REGIONAL_DEDICATED, REGIONAL_LOW_PRIORITY):
            name = family
            kind = "dedicatedCores" if family == REGIONAL_DEDICATED else "lowPriorityCores"
            usage_id = f"/subscriptions/{self.subscription}/usages"
        else:
            core = re.sub(r"(?i)^standard|family$", "", family)
            tier = "LowPriority" if low_priority else "Dedicated"
            name, kind = f"Standard {core} Family Cluster {tier} vCPUs", "vmFamily"
            usage_id = f"/subscriptions/{self.subscription}/usages/{name.replace(' ', '_')}"
        self.usages = [u for u in self.usages if u["name"]["value"] != name]
        self.usages.append(
            {
                "id": usage_id,
                "amlWorkspaceLocation": self.location,
                "type": f"{PROVIDER}/{kind}/usages",
                "unit": "Count",
                "currentValue": used,
                "limit": limit,
                "name": {"value": name, "localizedValue": name},
            }
        )

    def add_foreign_job(self, name: str, kind: str = "Labeling") -> None:
        """A job the workspace lists that dtrain-tui did not make: `Labeling` (a type
        azure-ai-ml refuses) or `unreadable` (a command job with an input type it cannot parse,
        which `jobs.list()` yields as None, as it does for batch-endpoint jobs)."""
        body = {
            "id": f"{self.ws_id}/jobs/{name}",
            "name": name,
            "type": f"{PROVIDER}/workspaces/jobs",
            "properties": {
                "jobType": "Labeling",
                "status": "Running",
                "displayName": name,
                "experimentName": "other",
                "services": {},
                "properties": {},
                "tags": {},
            },
            "systemData": {"createdAt": iso(datetime.now(timezone.utc)), "createdBy": "Other"},
        }
        if kind == "unreadable":
            body["properties"].update(
                jobType="Command",
                command="python score.py",
                environmentId="azureml:batch-env:1",
                inputs={"data": {"jobInputType": "batch_input_type", "uri": "azureml://x"}},
            )
        self.foreign_jobs.append(body)

    def set_status(self, name: str, status: str) -> None:
        """From now on job `name` is in `status` (any of azure-ai-ml's 14 `JobStatus` values)."""
        self.runs[name].forced = status

    def fail_with(self, name: str, error: dict[str, Any]) -> None:
        """Job `name` has failed, and Run History gives `error` (an `ErrorResponse` body as the
        service sends it, e.g. `data/run_error_service.json`) as its run details' `error`."""
        self.runs[name].error_body = error
        self.runs[name].forced = "Failed"

    def register_code(self, folder: Path) -> str:
        """Say the workspace already holds `folder` as a code asset (as after an upload)."""
        from azure.ai.ml._utils._asset_utils import get_content_hash, get_ignore_file

        # The hash azure-ai-ml sends in `codes/{name}/versions?hash=` (`_get_snapshot_path_info`).
        digest = get_content_hash(folder, get_ignore_file(folder))
        self.code_dirs[digest] = folder
        upload_code(self, digest, folder)  # where a job's code snapshot is read back from
        return digest

    def fail_next(self, method: str, path: str, **kwargs: Any) -> Fault:
        fault = Fault(method, path, **kwargs)
        self.faults.append(fault)
        return fault

    # ---- lifecycle ----------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"https://127.0.0.1:{self._server.server_address[1]}"

    @property
    def ws_id(self) -> str:
        return (
            f"/subscriptions/{self.subscription}/resourceGroups/{self.resource_group}"
            f"/providers/{PROVIDER}/workspaces/{self.workspace}"
        )

    def start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.ca.cert_pem.write_to_path(str(self.ca_file))
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
        handler = type("Bound", (Handler,), {"emulator": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._server.socket = context.wrap_socket(
            self._server.socket, server_side=True, do_handshake_on_connect=False
        )
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        service = self.azurite.service()
        if not service.get_container_client(CONTAINER).exists():
            service.create_container(CONTAINER)

    def stop(self) -> None:
        for run in list(self.runs.values()):
            run.stop()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def reset(self) -> None:
        """Between tests: stop runs, forget jobs, faults and requests; default settings."""
        for run in list(self.runs.values()):
            run.stop()
        self.runs.clear()
        self.requests.clear()
        self.unknown.clear()
        self.faults.clear()
        self.creations = ComputeCreations(self)
        self.computes.clear()
        self.usages.clear()
        self.add_defaults()
        self.run_jobs = False
        self.sas_lifetime = 3600.0
        self.pad = 0
        self.forbidden = False
        self.list_logs_in_run_history = True
        self.user_logs_listed_while_running = True
        self.legacy_logs = False
        self.cancel_status = 202
        self.cancel_delay = 0.0
        self.page_size = 50
        self.datastore_secrets = "Sas"
        self.foreign_jobs.clear()
        self.other_subscriptions.clear()
        self.listed_workspaces.clear()
        self.unlistable.clear()

    def __enter__(self) -> WorkspaceEmulator:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def puts(self) -> list[Recorded]:
        """The job PUTs received, oldest first."""
        return [r for r in self.requests if r.method == "PUT" and "/jobs/" in r.path]

    # ---- answers ------------------------------------------------------------------------

    def studio_url(self, name: str) -> str:
        return f"https://ml.azure.com/runs/{name}?wsid={self.ws_id}"

    def job_body(self, run: EmulatedRun) -> dict[str, Any]:
        props = dict(run.props)
        props["status"] = run.status()
        props["services"] = {
            "Studio": {"jobServiceType": "Studio", "endpoint": self.studio_url(run.name)},
        }
        props["outputs"] = {
            "default": {
                "jobOutputType": "uri_folder",
                "mode": "ReadWriteMount",
                "uri": f"azureml://datastores/workspaceartifactstore/{run.blob_prefix}",
            }
        }
        return {
            "id": f"{self.ws_id}/jobs/{run.name}",
            "name": run.name,
            "type": f"{PROVIDER}/workspaces/jobs",
            "properties": props,
            "systemData": {
                "createdAt": iso(run.created),
                "createdBy": "Test User",
                "createdByType": "User",
            },
        }

    def run_details(self, run: EmulatedRun) -> dict[str, Any]:
        status = run.status()
        started, ended = run.times()
        details: dict[str, Any] = {
            "runId": run.name,
            "status": status,
            "createdTimeUtc": iso(run.created),
            "warnings": [],
            "logFiles": self.log_urls(run) if self.list_logs_in_run_history else {},
        }
        if not self.user_logs_listed_while_running and status not in _ENDED:
            # Users report Run History listing system_logs/ while user_logs/ come at the end.
            details["logFiles"] = {
                k: v for k, v in details["logFiles"].items() if not k.startswith("user_logs/")
            }
        if started:
            details["startTimeUtc"] = iso(started)
        if ended:
            details["endTimeUtc"] = iso(ended)
        if status == "Failed":
            details["error"] = run.error_body or {
                "error": {"code": "UserError", "message": run.error}
            }
        return details

    def log_urls(self, run: EmulatedRun) -> dict[str, str]:
        now = datetime.now(timezone.utc)
        urls = {}
        for name in run.log_blobs():
            blob = f"{run.blob_prefix}/{name}"
            sas = generate_blob_sas(
                DEV_ACCOUNT,
                CONTAINER,
                blob,
                account_key=DEV_KEY,
                permission=BlobSasPermissions(read=True),
                start=now - timedelta(minutes=5),
                expiry=now + timedelta(seconds=self.sas_lifetime),
            )
            urls[name] = f"{self.azurite.endpoint}/{CONTAINER}/{quote(blob)}?{sas}"
        return urls

    def accept_job(self, name: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A job PUT: an existing job is returned as it is (a retried PUT); a new one starts."""
        props = body.get("properties") or {}
        with self._lock:
            existing = self.runs.get(name)
            if existing is not None:
                if _definition(existing.props) != _definition(props):
                    return 400, error(
                        "UserError",
                        f"Job {name} already exists with a different definition; job "
                        "properties are immutable",
                    )
                return 200, self.job_body(existing)
            compute = str(props.get("computeId") or "").rsplit("/", 1)[-1]
            if compute and compute not in self.computes:
                return 400, error(
                    "UserError", f"Compute {compute} not found in workspace {self.workspace}"
                )
            code = self._code_dir(str(props.get("codeId") or ""))
            run = EmulatedRun(
                name,
                props,
                azurite=self.azurite,
                backend=self.local if self.run_jobs else None,
                code=code,
                pad=self.pad,
                legacy=self.legacy_logs,
            )
            self.runs[name] = run
            created = self.job_body(run)
            created["properties"]["status"] = "Starting"  # what the service's 201 says
            return 201, created

    def _code_dir(self, code_id: str) -> Path | None:
        m = re.search(r"/codes/([^/]+)/versions/", code_id)
        digest = self.code_names.get(m.group(1)) if m else None
        return self.code_dirs.get(digest) if digest else None


_ENDED = ("Completed", "Failed", "Canceled")
REGIONAL_DEDICATED = "Total Cluster Dedicated Regional vCPUs"
REGIONAL_LOW_PRIORITY = "Total Cluster LowPriority Regional vCPUs"


def _definition(props: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in props.items() if k not in ("status", "services", "outputs")}
