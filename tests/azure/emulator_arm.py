"""The ARM lists behind the Submit step's workspace form: `GET /subscriptions` and a
subscription's Azure ML workspaces, in the recorded shapes (`data/subscriptions_list.json`,
`data/workspaces_list.json`; see `data/SOURCES.md`), paged by `page_size` with `nextLink`.

The emulator's own workspace is listed with `listed_workspaces` (resource group, name) beside it:
those can be chosen in the form but not used (the emulator serves one workspace).
`other_subscriptions` (id → display name) are listed too; `unlistable` subscriptions answer
their workspace list with 403, as one the identity has no role on does.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.azure.emulator_http import PROVIDER, error

if TYPE_CHECKING:
    from tests.azure.emulator import WorkspaceEmulator

DATA = Path(__file__).parent / "data"
_SUBSCRIPTION = json.loads((DATA / "subscriptions_list.json").read_text())["value"][0]
_WORKSPACE = json.loads((DATA / "workspaces_list.json").read_text())["value"][0]


def subscription_body(sid: str, name: str) -> dict[str, Any]:
    body = copy.deepcopy(_SUBSCRIPTION)
    body.update(id=f"/subscriptions/{sid}", subscriptionId=sid, displayName=name)
    return body


def workspace_body(sid: str, group: str, name: str, location: str) -> dict[str, Any]:
    body = copy.deepcopy(_WORKSPACE)
    body.update(
        id=f"/subscriptions/{sid}/resourceGroups/{group}/providers/{PROVIDER}/workspaces/{name}",
        name=name,
        location=location,
    )
    return body


def arm_list(
    em: WorkspaceEmulator, path: str, query: dict[str, list[str]]
) -> tuple[int, Any, None] | None:
    """The answer to a list request, or None when `path` is not one."""
    parts = path.strip("/").split("/")
    if parts == ["subscriptions"]:
        subs = {em.subscription: "Emulated subscription", **em.other_subscriptions}
        items = [subscription_body(s, n) for s, n in subs.items()]
    elif (
        len(parts) == 5
        and parts[0] == "subscriptions"
        and parts[2:]
        == [
            "providers",
            PROVIDER,
            "workspaces",
        ]
    ):
        sid = parts[1]
        if sid in em.unlistable:
            return 403, error("AuthorizationFailed", f"no access to {sid}"), None
        own = [(em.resource_group, em.workspace)] if sid == em.subscription else []
        items = [
            workspace_body(sid, group, name, em.location)
            for group, name in own + em.listed_workspaces.get(sid, [])
        ]
    else:
        return None
    start = int((query.get("skip") or ["0"])[0])
    page = items[start : start + em.page_size]
    body: dict[str, Any] = {"value": page}
    if start + em.page_size < len(items):
        body["nextLink"] = f"{em.base_url}{path}?api-version=x&skip={start + em.page_size}"
    return 200, body, None
