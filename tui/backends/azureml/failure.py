"""What a failed Azure ML job says for itself: the run's error (its code, nested codes, message
and details, as Run History gives them), and the last lines of the log that error names (else
of the first rank logs), for the status's outcome.

The tails are read with one HEAD and one `Range` GET per log on the SAS URLs Run History lists.
"""

from __future__ import annotations

from typing import Any

from tui.backends.azureml.errors import redact
from tui.backends.azureml.status import failed_log
from tui.logs.names import rank_logs
from tui.logs.service_error import ServiceError

TAIL_BYTES = 4096
"""How much of a failed rank's log the status reads for its last lines."""
TAIL_SCAN_RANKS = 16
"""A failure that names no log: how many rank logs are scanned for the first traceback."""


MAX_DETAILS = 8
"""`details[]` entries kept (the service nests the cause there, sometimes many times over)."""


def run_error(details: Any) -> ServiceError:
    """The run's error as the service gave it (`RunDetails.error`: an `ErrorResponse` whose
    `error` is the root error; empty when there is none), secrets redacted."""
    response = getattr(details, "error", None)
    root = getattr(response, "error", None) or response
    if root is None:
        return ServiceError()
    inner = []
    nested = getattr(root, "inner_error", None)
    while nested is not None and len(inner) < MAX_DETAILS:
        if code := getattr(nested, "code", None):
            inner.append(str(code))
        nested = getattr(nested, "inner_error", None)
    said = []
    for detail in (getattr(root, "details", None) or [])[:MAX_DETAILS]:
        code, message = getattr(detail, "code", None), getattr(detail, "message", None)
        if message:
            said.append(redact(f"{code}: {message}" if code else str(message)))
    return ServiceError(
        code=str(getattr(root, "code", None) or ""),
        message=redact(str(getattr(root, "message", None) or "")),
        inner=tuple(inner),
        details=tuple(said),
    )


def failure_tails(error: str, files: dict[str, str]) -> dict[str, str]:
    """The last lines of the log the error names, else of the first rank logs."""
    named, _, _ = failed_log(error, files)
    names = [named] if named in files else [r.name for r in rank_logs(files)]
    tails = {}
    for log in names[:TAIL_SCAN_RANKS]:
        tail = _tail(files[log])
        if tail is not None:
            tails[log] = tail
    return tails


def _tail(url: str) -> str | None:
    """The last TAIL_BYTES of a log, from the start of its first whole line; None on failure."""
    import httpx

    try:
        with httpx.Client(timeout=10.0) as client:
            head = client.head(url)
            size = int(head.headers.get("content-length", "0")) if head.status_code == 200 else 0
            start = max(0, size - TAIL_BYTES)
            response = client.get(url, headers={"Range": f"bytes={start}-"})
            if response.status_code not in (200, 206):
                return None
            body = response.content if response.status_code == 206 else response.content[start:]
    except (httpx.HTTPError, ValueError):
        return None
    text = body.decode("utf-8", errors="replace")
    return text.split("\n", 1)[1] if start > 0 and "\n" in text else text
