"""Which workspaces the signed-in identity can see, for the Submit step's workspace form.

Two ARM list calls, made with the app's own credential (no azure-mgmt package is needed):
`GET /subscriptions` (Subscriptions_List) and, per subscription,
`GET /subscriptions/{id}/providers/Microsoft.MachineLearningServices/workspaces`
(Workspaces_ListBySubscription), both paged with `nextLink`. The resource groups offered are the
ones that hold a workspace (each workspace's id names its group), so every choice leads to a
workspace; listing every resource group would offer dead ends.

`problems()` checks a subscription, resource group and workspace against what was listed and
says what is wrong with each of them at once, so a user fixes all three in one round. The
choice is remembered in the app's config folder (`workspace.remember`).
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tui.backends.azureml.workspace import ARM_SCOPE
from tui.backends.base import BackendError

ARM = "https://management.azure.com"
SUBSCRIPTIONS_API = "2022-12-01"
WORKSPACES_API = "2024-10-01"
FIELDS = ("subscription", "resource group", "workspace")
WRONG_FIELD = re.compile(r"(subscription|resource group|workspace) \S+ not found")
"""How `errors.explain` begins when Azure does not know one of the three."""


class ListingFailed(BackendError):
    """The subscriptions could not be listed (no permission to list, no network to ARM): the
    form cannot be offered, and the workspace found elsewhere is checked as it is."""


def arm_base() -> str:
    """ARM's address: azure-ai-ml's developer override (`AZUREML_DEV_URL_MFE`, where the tests'
    workspace emulator listens) when set, else the public cloud."""
    return (os.environ.get("AZUREML_DEV_URL_MFE") or ARM).rstrip("/")


@dataclass(frozen=True)
class Listed:
    """A workspace the identity can see."""

    subscription: str
    resource_group: str
    name: str
    location: str = ""


@dataclass
class Choices:
    """What the form offers: subscriptions (id → display name) and their workspaces."""

    subscriptions: dict[str, str] = field(default_factory=dict)
    workspaces: list[Listed] = field(default_factory=list)
    unlisted: dict[str, str] = field(default_factory=dict)
    """Subscription id → why its workspaces could not be listed (no permission, …)."""

    def groups(self, subscription: str) -> list[str]:
        """The resource groups of `subscription` that hold a workspace, sorted."""
        found = {w.resource_group for w in self.workspaces if w.subscription == subscription}
        return sorted(found, key=str.lower)

    def names(self, subscription: str, group: str) -> list[str]:
        """The workspaces in `group` of `subscription`, sorted."""
        return sorted(
            w.name
            for w in self.workspaces
            if w.subscription == subscription and w.resource_group.lower() == group.lower()
        )


def list_choices(credential: Any, base: str | None = None) -> Choices:
    """Every subscription the credential sees and every workspace in each (blocks)."""
    from azure.core import PipelineClient
    from azure.core.pipeline.policies import BearerTokenCredentialPolicy, RetryPolicy

    base = base or arm_base()
    policies = [RetryPolicy(retry_total=2), BearerTokenCredentialPolicy(credential, ARM_SCOPE)]
    choices = Choices()
    with PipelineClient(base_url=base, policies=policies) as client:
        try:
            for sub in _pages(client, f"{base}/subscriptions?api-version={SUBSCRIPTIONS_API}"):
                if sub.get("state", "Enabled") in ("Enabled", "Warned", "PastDue"):
                    sid = str(sub.get("subscriptionId") or "")
                    choices.subscriptions[sid] = str(sub.get("displayName") or sid)
        except Exception as err:  # refused, unreachable: said, and the found one is used
            raise ListingFailed(f"could not list your subscriptions ({err})") from None
        for sid in choices.subscriptions:
            url = (
                f"{base}/subscriptions/{sid}/providers/Microsoft.MachineLearningServices"
                f"/workspaces?api-version={WORKSPACES_API}"
            )
            try:
                for ws in _pages(client, url):
                    parts = str(ws.get("id") or "").split("/")
                    group = parts[4] if len(parts) > 4 else ""
                    choices.workspaces.append(
                        Listed(sid, group, str(ws.get("name")), str(ws.get("location") or ""))
                    )
            except BackendError as err:  # one subscription's refusal hides only its workspaces
                choices.unlisted[sid] = str(err)
    return choices


def _pages(client: Any, url: str) -> Iterator[dict[str, Any]]:
    from azure.core.rest import HttpRequest

    while url:
        response = client.send_request(HttpRequest("GET", url))
        if response.status_code != 200:
            raise BackendError(_arm_error(response))
        body = response.json()
        yield from body.get("value") or []
        url = body.get("nextLink") or ""


def _arm_error(response: Any) -> str:
    try:
        err = response.json().get("error") or {}
    except ValueError:
        err = {}
    return f"{err.get('code') or response.status_code}: {err.get('message') or response.reason}"


def problems(choices: Choices, subscription: str, group: str, name: str) -> dict[str, str]:
    """What is missing or wrong in each of the three fields, all at once (field → message).

    A field is judged even when the one before it is wrong: a resource group or workspace that
    exists elsewhere says where, so one round of fixes is enough."""
    out: dict[str, str] = {}
    subs = choices.subscriptions
    if not subscription:
        out["subscription"] = "choose a subscription"
    elif subscription not in subs:
        out["subscription"] = (
            f"{subscription} is not among the {len(subs)} subscriptions you can see"
            if subs
            else "you can see no subscription: ask for a role on one, or `az login` as another"
        )
    elif subscription in choices.unlisted:
        why = choices.unlisted[subscription]
        out["subscription"] = f"its workspaces could not be listed ({why})"
    known = "subscription" not in out
    pool = [w for w in choices.workspaces if not known or w.subscription == subscription]
    where = f"in {subs[subscription]}" if known else "in any subscription you can see"
    groups = sorted({w.resource_group for w in pool}, key=str.lower)
    if not group:
        out["resource group"] = "choose a resource group"
    elif group.lower() not in {g.lower() for g in groups}:
        out["resource group"] = f"{group} holds no Azure ML workspace {where}" + _closest(
            group, groups
        )
    if not name:
        out["workspace"] = "choose a workspace"
    elif not any(w.name == name and w.resource_group.lower() == group.lower() for w in pool):
        homes = sorted({w.resource_group for w in pool if w.name == name})
        if homes:
            out["workspace"] = f"{name} is in resource group {' and '.join(homes)}" + (
                f", not {group}" if group else ""
            )
        else:
            names = sorted({w.name for w in pool})
            out["workspace"] = f"no workspace {name} {where}" + _closest(name, names)
    return out


def _closest(word: str, words: list[str]) -> str:
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
