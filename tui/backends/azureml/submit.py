"""Submitting a job once: its name is chosen before the first request, the same plan submitted
again is recognised by its fingerprint, and a failed create is either refused (the job does not
exist: say why) or of unknown outcome (the job may exist: the retry reuses its name).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime

from tui.planning.plan import LaunchPlan
from tui.planning.sdk import Call

_SDK_REFUSALS = {"ValidationException", "ValidationError", "UserErrorException", "MlException"}


def new_job_name(plan: LaunchPlan) -> str:
    """`ddp-2x8-20250101-120000-1a2b3c`: readable, sortable, unique in a workspace."""
    spec = plan.spec
    base = re.sub(
        r"[^a-z0-9]+", "-", (spec.display_name or spec.experiment or spec.framework).lower()
    )
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"{base.strip('-')[:40] or 'job'}-{stamp}-{secrets.token_hex(3)}"


def job_fingerprint(call: Call) -> str:
    """The job's `command(...)` call as a key: the same plan submitted again has the same one."""
    return hashlib.sha256(repr(call).encode()).hexdigest()


def was_refused(err: Exception) -> bool:
    """Whether the create was turned down (a 4xx, or azure-ai-ml's own validation), so the job
    was not made; any other failure leaves it unknown whether it was."""
    status = getattr(getattr(err, "response", None), "status_code", None)
    return (status is not None and 400 <= status < 500) or type(err).__name__ in _SDK_REFUSALS
