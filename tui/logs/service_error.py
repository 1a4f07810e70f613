"""The service's own error for a job, as the doctor reads it: beside the logs, under its own name.

Azure ML's Run History gives a failed run an `error` (an `ErrorResponse`: its `error.code`, such
as `UserError`, `SystemError` or `ServiceError`, a `message`, nested `innerError` codes and
`details[]`). The platform's causes are often only there (an image that did not build, a node
that was preempted), and the code alone tells the user's failure from the service's. Every place
that shows a verdict (the job screen, the jobs list, `doctor --target azure`) passes it to
`diagnose(service_error=...)`, which reads it like one more log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

SERVICE_ERROR = "job error (from the service)"
"""The name the service's error is read under, beside the job's logs."""
MAX_MESSAGE = 16 << 10
"""How much of a message is kept (a service message can hold a whole traceback)."""


@dataclass(frozen=True)
class ServiceError:
    """A job's error as the service gave it (empty fields where it said nothing)."""

    code: str = ""
    """The service's code: `UserError`, `SystemError`, `ServiceError`, …"""
    message: str = ""
    inner: tuple[str, ...] = ()
    """The nested `innerError` codes, outermost first (the last is the most specific)."""
    details: tuple[str, ...] = ()
    """The messages of `details[]`, each `code: message`."""

    def __bool__(self) -> bool:
        return bool(self.code or self.message or self.details)

    def text(self) -> str:
        """What the doctor reads: the codes in the service's own JSON shape (as users paste it),
        then the message and the details, each line as the service wrote it."""
        first, *rest = self.message[:MAX_MESSAGE].splitlines() or [""]
        error: dict[str, object] = {"code": self.code, "message": first}
        nested = error
        for code in self.inner:
            nested["innerError"] = nested = {"code": code}
        lines = [json.dumps({"error": error}), *rest]
        for detail in self.details:
            lines.extend(detail[:MAX_MESSAGE].splitlines())
        return "\n".join(lines) + "\n"
