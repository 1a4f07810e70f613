"""The emulator's HTTP side: one handler that checks the token, applies injected faults and
routes each request to what `WorkspaceEmulator` answers (ARM, discovery, Run History)."""

from __future__ import annotations

import json
import re
import threading
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from tests.azure.emulator_code import BLOBSTORE, blobstore, code_version
from tests.azure.emulator_runs import CONTAINER
from tests.logs.azurite import DEV_ACCOUNT, DEV_KEY

if TYPE_CHECKING:
    from tests.azure.emulator import WorkspaceEmulator

TOKEN = "emulator-test-token"
PROVIDER = "Microsoft.MachineLearningServices"
_WS = re.compile(
    r"^/subscriptions/(?P<sub>[^/]+)/resourceGroups/(?P<rg>[^/]+)/providers/"
    rf"{re.escape(PROVIDER)}/workspaces/(?P<ws>[^/]+)(?P<rest>/.*)?$",
    re.IGNORECASE,
)
_LOCATION = re.compile(
    rf"^/subscriptions/(?P<sub>[^/]+)/providers/{re.escape(PROVIDER)}/locations/(?P<loc>[^/]+)"
    r"/(?P<what>usages|vmSizes|mfeOperationResults/(?P<op>[^/]+)"
    r"|computeOperationsStatus/(?P<compute_op>[^/]+))$",
    re.IGNORECASE,
)
_HISTORY = re.compile(r"^/history/v1\.0(?P<ws>/subscriptions/.+?)/runs/(?P<run>[^/]+)/details$")


@dataclass
class Fault:
    """What to do instead of (or after) answering the next matching request."""

    method: str
    path: str
    """A substring of the path."""
    times: int = 1
    status: int | None = None
    body: dict[str, Any] | None = None
    drop_after: bool = False
    """Handle the request, then close the connection without answering (a lost response)."""


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    headers: dict[str, str] = field(repr=False)


def error(code: str, message: str, details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An ARM error body; the service puts the specific cause in `details[]`."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return {"error": body}


class Handler(BaseHTTPRequestHandler):
    """Serves one request; subclassed per emulator with `emulator` set."""

    protocol_version = "HTTP/1.1"
    emulator: WorkspaceEmulator

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._serve("GET")

    def do_PUT(self) -> None:
        self._serve("PUT")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    def _serve(self, method: str) -> None:
        em = self.emulator
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode(errors="replace")
        em.requests.append(Recorded(method, path, query, body, dict(self.headers)))
        fault = next(
            (f for f in em.faults if f.method == method and f.path in path and f.times > 0), None
        )
        if fault is not None:
            fault.times -= 1
            if fault.status is not None:
                self._send(fault.status, fault.body or error("Injected", "injected fault"))
                return
        if path != "/discovery" and self.headers.get("authorization") != f"Bearer {TOKEN}":
            self._send(401, error("AuthenticationFailed", "missing or invalid bearer token"))
            return
        status, answer, headers = self._route(method, path, query, body)
        if fault is not None and fault.drop_after:
            self.close_connection = True
            return
        self._send(status, answer, headers)

    def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-ms-request-id", str(uuid.uuid4()))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    # ---- routing ------------------------------------------------------------------------

    def _route(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any, dict[str, str] | None]:
        em = self.emulator
        if path == "/discovery" and method == "GET":
            base = em.base_url
            return (
                200,
                {"api": base, "catalog": base, "experimentation": base, "history": base},
                None,
            )
        m = _HISTORY.match(path)
        if m and method == "GET":
            run = em.runs.get(m.group("run"))
            if run is None or not m.group("ws").lower().endswith(em.workspace.lower()):
                return 404, error("UserError", f"Run {m.group('run')} was not found"), None
            return 200, em.run_details(run), None
        m = _LOCATION.match(path)
        if m and method == "GET":
            return self._location(m)
        m = _WS.match(path)
        if m:
            missing = self._missing_workspace(m)
            if missing is not None:
                return missing
            return self._workspace(method, m.group("rest") or "", query, body)
        from tests.azure.emulator_arm import arm_list  # it builds on this module's names

        listed = arm_list(em, path, query) if method == "GET" else None
        if listed is not None:  # the workspace form's subscriptions and workspaces
            return listed
        em.unknown.append(f"{method} {path}")
        return 404, error("EmulatorUnknownRoute", f"the emulator does not serve {path}"), None

    def _missing_workspace(self, m: re.Match[str]) -> tuple[int, Any, None] | None:
        em = self.emulator
        if m.group("sub") != em.subscription:
            return (
                404,
                error(
                    "SubscriptionNotFound",
                    f"The subscription '{m.group('sub')}' could not be found.",
                ),
                None,
            )
        if m.group("rg").lower() != em.resource_group.lower():
            return (
                404,
                error(
                    "ResourceGroupNotFound", f"Resource group '{m.group('rg')}' could not be found."
                ),
                None,
            )
        if m.group("ws").lower() != em.workspace.lower():
            return (
                404,
                error(
                    "ResourceNotFound",
                    f"The Resource '{PROVIDER}/workspaces/{m.group('ws')}' under resource group "
                    f"'{m.group('rg')}' was not found. For more details please go to "
                    "https://aka.ms/ARMResourceNotFoundFix",
                ),
                None,
            )
        if em.forbidden:
            return (
                403,
                error(
                    "AuthorizationFailed",
                    "The client 'test@example.com' with object id '1234' does not have "
                    f"authorization to perform action '{PROVIDER}/workspaces/read' over scope "
                    f"'{em.ws_id}' or the scope is invalid.",
                ),
                None,
            )
        return None

    def _location(self, m: re.Match[str]) -> tuple[int, Any, dict[str, str] | None]:
        em = self.emulator
        what = m.group("what").lower()
        if what == "usages":
            return 200, {"value": em.usages}, None
        if m.group("compute_op"):
            return em.creations.status(m.group("compute_op"))
        if what == "vmsizes":
            sizes = [
                {
                    "name": s["name"],
                    "family": s["family"],
                    "vCPUs": s["vCPUs"],
                    "gpus": s["gpus"],
                    "osVhdSizeMB": 1047552,
                    "maxResourceVolumeMB": 1000,
                    "memoryGB": 900.0,
                    "lowPriorityCapable": True,
                    "premiumIO": True,
                    "supportedComputeTypes": ["AmlCompute"],
                }
                for s in em.vm_sizes
            ]
            return 200, {"value": sizes}, None
        run = em.operations.get(m.group("op"))
        if run is None:
            return 404, error("NotFound", "no such operation"), None
        if not run.canceled_event.is_set():
            return 202, None, {"Location": self._operation_url(m.group("op")), "Retry-After": "0.2"}
        return 200, None, None

    def _operation_url(self, op: str) -> str:
        em = self.emulator
        return (
            f"{em.base_url}/subscriptions/{em.subscription}/providers/{PROVIDER}/locations/"
            f"{em.location}/mfeOperationResults/{op}?api-version=2023-04-01-preview"
        )

    def _workspace(
        self, method: str, rest: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any, dict[str, str] | None]:
        em = self.emulator
        if rest == "" and method == "GET":
            return (
                200,
                {
                    "id": em.ws_id,
                    "name": em.workspace,
                    "type": f"{PROVIDER}/workspaces",
                    "location": em.location,
                    "properties": {"discoveryUrl": f"{em.base_url}/discovery"},
                },
                None,
            )
        segments = rest.strip("/").split("/")
        head = segments[0].lower()
        if head == "jobs":
            return self._jobs(method, segments[1:], body, query)
        if head == "computes" and len(segments) == 2 and method == "PUT":
            return em.creations.put(segments[1], body)
        if head == "computes" and len(segments) == 2 and method == "GET":
            compute = em.computes.get(segments[1])
            if compute is None:
                return (
                    404,
                    error(
                        "ResourceNotFound",
                        f"The Resource '{PROVIDER}/workspaces/{em.workspace}/computes/"
                        f"{segments[1]}' "
                        f"under resource group '{em.resource_group}' was not found.",
                    ),
                    None,
                )
            return 200, compute, None
        if head == "codes" and method == "GET":
            return self._codes(segments[1:], query)
        if head == "datastores":
            return self._datastores(method, segments[1:])
        em.unknown.append(f"{method} {rest}")
        return 404, error("EmulatorUnknownRoute", f"the emulator does not serve {rest}"), None

    def _jobs(
        self, method: str, segments: list[str], body: Any, query: dict[str, list[str]]
    ) -> tuple[int, Any, dict[str, str] | None]:
        em = self.emulator
        if not segments and method == "GET":
            return 200, self._job_page(query), None
        name = segments[0]
        if len(segments) == 1 and method == "PUT":
            status, answer = em.accept_job(name, body or {})
            return status, answer, None
        run = em.runs.get(name)
        if run is None:
            return (
                404,
                error("UserError", f"Could not find asset with ID: {em.ws_id}/jobs/{name}"),
                None,
            )
        if len(segments) == 1 and method == "GET":
            return 200, em.job_body(run), None
        if segments[1:] == ["cancel"] and method == "POST":
            threading.Thread(target=run.cancel, args=(em.cancel_delay,), daemon=True).start()
            if em.cancel_status == 200:
                return 200, None, None
            op = f"jc:{uuid.uuid4()}"
            em.operations[op] = run
            # azure-ai-ml reads this first Retry-After as an int (a fraction fails to parse).
            return 202, None, {"Location": self._operation_url(op), "Retry-After": "1"}
        em.unknown.append(f"{method} jobs/{'/'.join(segments)}")
        return 404, error("EmulatorUnknownRoute", "not served"), None

    def _job_page(self, query: dict[str, list[str]]) -> dict[str, Any]:
        """One page of the job list, newest first, with `nextLink` while more remain."""
        em = self.emulator
        bodies = [(r.created.isoformat(), em.job_body(r)) for r in em.runs.values()]
        bodies += [(b["systemData"]["createdAt"], b) for b in em.foreign_jobs]
        ordered = [b for _, b in sorted(bodies, key=lambda x: x[0], reverse=True)]
        start = int((query.get("$skipToken") or ["0"])[0])
        page: dict[str, Any] = {"value": ordered[start : start + em.page_size]}
        if start + em.page_size < len(ordered):
            page["nextLink"] = (
                f"{em.base_url}{em.ws_id}/jobs?api-version=2024-01-01-preview"
                f"&$skipToken={start + em.page_size}"
            )
        return page

    def _codes(
        self, segments: list[str], query: dict[str, list[str]]
    ) -> tuple[int, Any, dict[str, str] | None]:
        em = self.emulator
        name = segments[0]
        if segments[1:] == ["versions"] and "hash" in query:
            em.code_names[name] = query["hash"][0]
            return 200, {"value": [code_version(em, name)]}, None
        if segments[1:] == ["versions", "1"]:
            return 200, code_version(em, name), None
        em.unknown.append(f"GET codes/{'/'.join(segments)}")
        return 404, error("EmulatorUnknownRoute", "not served"), None

    def _datastores(
        self, method: str, segments: list[str]
    ) -> tuple[int, Any, dict[str, str] | None]:
        em = self.emulator
        name = segments[0] if segments else ""
        if name == BLOBSTORE and len(segments) == 1 and method == "GET":
            return 200, blobstore(em), None
        if name not in ("workspaceartifactstore", BLOBSTORE):
            return 404, error("UserError", f"Datastore {name} not found"), None
        if len(segments) == 1 and method == "GET":
            port = urlsplit(em.azurite.endpoint).port
            return (
                200,
                {
                    "id": f"{em.ws_id}/datastores/{name}",
                    "name": name,
                    "type": f"{PROVIDER}/workspaces/datastores",
                    "properties": {
                        "datastoreType": "AzureBlob",
                        "accountName": DEV_ACCOUNT,
                        "containerName": CONTAINER,
                        "endpoint": f"localhost:{port}",
                        "protocol": "http",
                        "credentials": {
                            # "None": an identity-only datastore (no key, no SAS to hand out)
                            "credentialsType": "None"
                            if em.datastore_secrets == "None"
                            else "AccountKey"
                        },
                        "isDefault": False,
                    },
                },
                None,
            )
        if segments[1:] == ["listSecrets"] and method == "POST":
            if em.datastore_secrets == "Sas":
                return 200, {"secretsType": "Sas", "sasToken": "?" + _account_sas()}, None
            return 200, {"secretsType": "AccountKey", "key": DEV_KEY}, None
        return 404, error("EmulatorUnknownRoute", "not served"), None


def _account_sas() -> str:
    """An account SAS like the one `listSecrets` hands out for `expirableSecret` (the recording
    shows `srt=co&ss=bf`): containers and blobs, read and list, one hour."""
    from datetime import datetime, timedelta, timezone

    from azure.storage.blob import AccountSasPermissions, ResourceTypes, generate_account_sas

    return generate_account_sas(
        DEV_ACCOUNT,
        DEV_KEY,
        ResourceTypes(container=True, object=True),
        AccountSasPermissions(read=True, list=True),
        expiry=datetime.now(timezone.utc) + timedelta(hours=1),
    )
