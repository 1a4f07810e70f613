"""Azure's exceptions as one line that says what went wrong and what to do about it.

No traceback reaches the user and no secret reaches a message: SAS signatures, bearer tokens
and account keys are blanked before a line leaves here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from tui.backends.azureml.workspace import (
    ENV_RESOURCE_GROUP,
    ENV_SUBSCRIPTION,
    ENV_WORKSPACE,
    sign_in_message,
)
from tui.backends.base import BackendError, ComputeNotFound, JobNotFound
from tui.logs.sources import redact_text

if TYPE_CHECKING:
    from tui.backends.azureml.workspace import Workspace

_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]+")
_JWT = re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")
_ACCOUNT_KEY = re.compile(r"(?i)(AccountKey=|\"key\d?\"\s*:\s*\")[^;\"\s]+")
MAX_LINE = 400


def redact(text: str) -> str:
    """`text` without SAS signatures, bearer tokens, JWTs or account keys."""
    text = redact_text(text)
    text = _BEARER.sub(r"\1<redacted>", text)
    text = _JWT.sub("<redacted token>", text)
    return _ACCOUNT_KEY.sub(r"\1<redacted>", text)


def one_line(text: str) -> str:
    """The first non-empty line of `text`, redacted and at most MAX_LINE characters."""
    line = next((ln.strip() for ln in str(text).splitlines() if ln.strip()), "")
    line = redact(line)
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def azure_message(err: BaseException) -> tuple[str, str]:
    """(error code, message) as Azure sent them, as far as they can be told.

    Azure ML often answers with a generic top-level message ("Request is invalid and/or
    missing fields.") and the cause in `error.details[]`, nested at any depth; the most specific
    detail is the message then (with how many more there were).
    """
    error = getattr(err, "error", None)
    code = str(getattr(error, "code", "") or "")
    message = str(getattr(error, "message", "") or "")
    details = list(getattr(error, "details", None) or [])
    if not message or not details:
        response = getattr(err, "response", None)
        try:
            body = response.json() if response is not None else None
        except Exception:
            body = None
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            code = code or str(body["error"].get("code", ""))
            message = message or str(body["error"].get("message", ""))
            details = details or list(body["error"].get("details") or [])
    leaves = [m for m in _detail_messages(details) if m and m != message]
    if leaves:
        more = len(leaves) - 1
        message = leaves[0] + (f" (and {more} more)" if more else "")
    if not message:
        message = str(getattr(err, "message", "") or err)
        message = re.sub(r"^\([A-Za-z]+\)\s*", "", message)
    return code, one_line(message)


def _detail_messages(details: list) -> list[str]:
    """The deepest messages of an error's `details[]` tree, depth first (objects or dicts)."""
    found: list[str] = []
    for detail in details:
        get = detail.get if isinstance(detail, dict) else lambda k, d=detail: getattr(d, k, None)
        inner = _detail_messages(list(get("details") or []))
        message = str(get("message") or "")
        found.extend(inner or ([message] if message else []))
    return found


def explain(
    err: BaseException,
    ws: Workspace | None,
    doing: str,
    *,
    compute: str | None = None,
    job: str | None = None,
) -> BackendError:
    """A BackendError (JobNotFound for a missing job) whose message is one line with the fix."""
    if isinstance(err, BackendError):
        return err
    from azure.core.exceptions import (
        ClientAuthenticationError,
        HttpResponseError,
        ServiceRequestError,
        ServiceResponseError,
    )

    where = f"workspace {ws.name} (resource group {ws.resource_group})" if ws else "the workspace"
    status = getattr(getattr(err, "response", None), "status_code", None)
    if isinstance(err, ClientAuthenticationError) and status is None:
        return BackendError(sign_in_message(err))
    if isinstance(err, (ServiceRequestError, ServiceResponseError)):
        return BackendError(
            f"cannot reach Azure ML while {doing}: {one_line(str(err)) or type(err).__name__}; "
            "check your network or proxy and try again"
        )
    if isinstance(err, HttpResponseError) and status is not None:
        code, message = azure_message(err)
        return _http(status, code, message, ws, where, doing, compute, job)
    name = type(err).__name__
    if name in ("ValidationException", "ValidationError", "UserErrorException", "MlException"):
        return BackendError(f"azure-ai-ml refused the job: {_sdk_message(err)}")
    return BackendError(f"{doing} failed: {name}: {one_line(str(err)) or 'no detail'}")


def _http(
    status: int,
    code: str,
    message: str,
    ws: Workspace | None,
    where: str,
    doing: str,
    compute: str | None,
    job: str | None,
) -> BackendError:
    said = f" (Azure: {code or 'HTTP ' + str(status)}: {message})" if message else ""
    if status == 401:
        return BackendError(
            f"Azure ML did not accept your sign-in while {doing}: run `az login` again "
            f"(with --tenant if the workspace is in another tenant){said}"
        )
    if status == 403:
        return BackendError(
            f"no permission for {doing} in {where}: ask its owner for the AzureML Data "
            f"Scientist role, or sign in as an account that has it (`az login`){said}"
        )
    if status == 404:
        lowered = f"{code} {message}".lower()
        if ws is not None and "resourcegroupnotfound" in lowered:
            return BackendError(
                f"resource group {ws.resource_group} not found in subscription "
                f"{ws.subscription_id}: {where_set(ws, 'resource group')}"
            )
        if ws is not None and (
            "subscriptionnotfound" in lowered or "invalidsubscription" in lowered
        ):
            return BackendError(
                f"subscription {ws.subscription_id} not found for your account: "
                f"{where_set(ws, 'subscription')} (`az account list` shows yours)"
            )
        if ws is not None and f"workspaces/{ws.name.lower()}'" in lowered:
            return BackendError(
                f"workspace {ws.name} not found in resource group {ws.resource_group}: "
                f"{where_set(ws, 'workspace')}"
            )
        if job is not None:
            return JobNotFound(f"no job named {job} in {where}")
        if compute is not None:
            return ComputeNotFound(
                f"compute cluster {compute} not found in {where}: add --create-compute to create "
                "it for this job (the Submit step offers the same), or choose another with "
                "--set compute=NAME",
                compute,
            )
        return BackendError(f"not found while {doing}{said}")
    if status == 429:
        return BackendError(f"Azure ML is throttling requests while {doing}: wait a minute{said}")
    if status >= 500:
        return BackendError(
            f"Azure ML had a server error while {doing} (HTTP {status}): try again in a "
            f"minute{said}"
        )
    return BackendError(f"Azure ML rejected {doing}: {message or code or 'HTTP ' + str(status)}")


# Where each workspace field is set: its flag, its environment variable, its config.json key.
_SETTINGS = {
    "subscription": ("--subscription", ENV_SUBSCRIPTION, "subscription_id"),
    "resource group": ("--resource-group", ENV_RESOURCE_GROUP, "resource_group"),
    "workspace": ("--workspace", ENV_WORKSPACE, "workspace_name"),
}


def where_set(ws: Workspace, key: str) -> str:
    """What to check for a workspace field Azure does not know: the setting the value came from."""
    flag, env, field = _SETTINGS[key]
    source = ws.sources.get(key, "")
    if source == "flags":
        return f"check {flag}, which named it"
    if source == f"env {env}":
        return f"check {env}, which named it (or give {flag})"
    if source.endswith(".json"):
        return f"check {field} in {source}, which named it (or give {flag})"
    return f"check {flag}, {env} or {field} in config.json"


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
_DETAILS = re.compile(r"\(x\) (.*?)(?=\n\s*\(x\) |\n\s*\nResolutions:|\Z)", re.S)


def _sdk_message(err: BaseException) -> str:
    """What azure-ai-ml says is wrong, in one line: the `(x) …` items of its formatted
    validation error (colour codes, its generic head and its advice left out), else its first
    line."""
    message = _COLOUR.sub("", str(getattr(err, "message", None) or err))
    details = [" ".join(d.split()) for d in _DETAILS.findall(message)]
    return one_line("; ".join(details) or message) or type(err).__name__


@contextmanager
def azure_errors(
    ws: Workspace | None,
    doing: str,
    *,
    compute: str | None = None,
    job: str | None = None,
) -> Iterator[None]:
    """Turn anything raised inside into `explain(...)`'s BackendError, without a chained cause."""
    try:
        yield
    except BackendError:
        raise
    except Exception as err:
        raise explain(err, ws, doing, compute=compute, job=job) from None
