"""Creating the compute cluster a job names when it does not exist yet.

The cluster is the guide's `AmlCompute` (see `tui.planning.sdk.sdk_cluster`), shown to the user as
code before it is created. Creation is a long-running operation: `progress` hears its state
every poll, a failure is one line with the fix, and a cluster Azure ML left behind in a
failed state is named, never silently kept.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.backends.azureml.calls import build
from tui.backends.azureml.errors import azure_message, explain, one_line
from tui.backends.base import BackendError

if TYPE_CHECKING:
    from tui.backends.azureml.workspace import Workspace
    from tui.planning.sdk import Call

# Azure ML's rule for compute names (Studio and `az ml compute create` say the same).
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9-]{0,14}[A-Za-z0-9]$")
POLL_SECONDS = 2.0


def name_problem(name: str) -> str | None:
    """Why Azure ML would refuse `name` for a cluster, or None."""
    if _NAME.match(name):
        return None
    return (
        f"compute name {name!r} is not allowed: use 2 to 16 letters, digits and dashes, "
        "starting with a letter and ending with a letter or digit"
    )


def create_cluster(
    ml_client: Any,
    cluster: Call,
    ws: Workspace,
    progress: Callable[[str], None] = lambda line: None,
    poll_seconds: float = POLL_SECONDS,
) -> str:
    """Create `cluster`, reporting its state through `progress`; returns a one-line summary.

    Raises BackendError (one line with the fix) when the name, the size or the quota stops it.
    """
    kw = cluster.kwargs
    name, size = kw["name"], kw["size"]
    problem = name_problem(name)
    if problem:
        raise BackendError(problem)
    if not size:
        raise BackendError("the job names no VM size: choose one in Resources (or --set sku=…)")
    _check_size_offered(ml_client, ws, size)
    doing = f"creating compute cluster {name}"
    try:
        poller = ml_client.compute.begin_create_or_update(build(cluster))
        started = time.monotonic()
        while not poller.done():
            progress(f"{doing}: {poller.status()} ({time.monotonic() - started:.0f} s)")
            poller.wait(poll_seconds)
        created = poller.result()
    except BackendError:
        raise
    except Exception as err:
        raise _failure(err, ml_client, ws, name, size, doing) from None
    state = getattr(created, "provisioning_state", None) or "Succeeded"
    progress(f"{doing}: {getattr(state, 'value', state)}")
    return f"created compute cluster {name}: {size}, 0–{kw['max_instances']} nodes, {kw['tier']}"


def _check_size_offered(ml_client: Any, ws: Workspace, size: str) -> None:
    try:
        sizes = [s.name.lower() for s in ml_client.compute.list_sizes()]
    except Exception as err:
        raise explain(err, ws, "listing the region's VM sizes") from None
    if sizes and size.lower() not in sizes:
        raise BackendError(
            f"{size} is not offered in the region of workspace {ws.name}: "
            "choose another size in Resources, or a workspace in a region that has it"
        )


def _failure(err: Exception, ml_client: Any, ws: Workspace, name: str, size: str, doing: str):
    """The one-line error for a failed creation, naming a cluster left behind."""
    code, message = azure_message(err)
    text = f"{code} {message}".lower()
    if "quota" in text:
        line = (
            f"not enough quota for {size} to create {name} (Azure: {message}): request more "
            "(portal → Quotas, the size's family, Cluster Dedicated vCPUs), choose a smaller "
            "size, or create it as low priority"
        )
    elif "already exists" in text or "conflict" in text:
        line = f"compute name {name} is taken in the workspace: choose another name"
    else:
        line = str(explain(err, ws, doing))
    left = _left_behind(ml_client, name)
    if left:
        line += (
            f"; Azure ML left {name} in state {left}: delete it (`az ml compute delete "
            f"-n {name}`) before trying again"
        )
    return BackendError(one_line(line) if len(line) < 400 else line)


def _left_behind(ml_client: Any, name: str) -> str | None:
    """The provisioning state of a cluster a failed creation left, or None."""
    try:
        compute = ml_client.compute.get(name)
    except Exception:
        return None
    state = getattr(compute, "provisioning_state", None) or "unknown"
    return str(getattr(state, "value", state))
