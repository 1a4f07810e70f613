"""Which Azure ML workspace, and who is signed in: found without importing azure.ai.ml.

The workspace comes from flags, then the environment (`AZURE_SUBSCRIPTION_ID`,
`AZURE_RESOURCE_GROUP`, `AZUREML_WORKSPACE_NAME`), then a `config.json` found the way
`MLClient.from_config` finds one, field by field; where none of them names any field, the one
last chosen in the Submit step's form (remembered in the config folder).

The credential is `DefaultAzureCredential` without the sources that make a laptop wait (managed
identity, VS Code, PowerShell, …), and the sign-in check asks it for a token in a daemon thread
with a deadline, so "not signed in" is one line within a second or two, never a hang and never a
traceback.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any

from tui.backends.base import BackendError
from tui.core.dirs import config_dir
from tui.core.files import write_atomic

ENV_SUBSCRIPTION = "AZURE_SUBSCRIPTION_ID"
ENV_RESOURCE_GROUP = "AZURE_RESOURCE_GROUP"
ENV_WORKSPACE = "AZUREML_WORKSPACE_NAME"
ARM_SCOPE = "https://management.azure.com/.default"
REMEMBERED = "azure-workspace.json"
"""The workspace last chosen in the Submit step, in the config folder."""
SIGN_IN_TIMEOUT = 20.0
"""Seconds the sign-in check waits for a token (the Azure CLI takes one to three)."""

# The order MLClient.from_config searches in (azure-ai-ml 1.35, `_ml_client.py`): each pair is
# looked for in the start folder and up to 20 parents before the next pair is tried.
_CONFIG_DIRS = (".azureml", "aml_config", None)
_CONFIG_FILES = ("config.json", "project.json")
_CONFIG_LEVELS = 20

NOT_SIGNED_IN = (
    "not signed in to Azure: run `az login` (or `azd auth login`), or set AZURE_TENANT_ID, "
    "AZURE_CLIENT_ID and AZURE_CLIENT_SECRET for a service principal"
)
NO_WORKSPACE = (
    "no Azure ML workspace configured: pass --subscription, --resource-group and --workspace, "
    f"set {ENV_SUBSCRIPTION}, {ENV_RESOURCE_GROUP} and {ENV_WORKSPACE}, or put the workspace's "
    "config.json (Azure portal → the workspace → Download config.json) in this folder or "
    ".azureml/, or choose it in the app's Submit step (Azure ML), which remembers it"
)


@dataclass(frozen=True)
class Workspace:
    """An Azure ML workspace's coordinates, and where each came from."""

    subscription_id: str
    resource_group: str
    name: str
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Field → "flag", "env AZURE_…" or the config file's path."""

    @property
    def arm_id(self) -> str:
        return (
            f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}"
            f"/providers/Microsoft.MachineLearningServices/workspaces/{self.name}"
        )

    def describe(self) -> str:
        """`ws (resource group rg, subscription 1234…) from config.json at /path`."""
        where = sorted(set(self.sources.values()))
        origin = f" from {', '.join(where)}" if where else ""
        return (
            f"{self.name} (resource group {self.resource_group}, "
            f"subscription {self.subscription_id}){origin}"
        )


def find_config(start: Path | str | None = None) -> Path | None:
    """The config file `MLClient.from_config(path=start)` would read, or None."""
    base = Path.cwd() if start is None else Path(start)
    if base.is_file():
        return base
    for folder, name in product(_CONFIG_DIRS, _CONFIG_FILES):
        relative = Path(folder, name) if folder else Path(name)
        current = base.resolve()
        for _level in range(_CONFIG_LEVELS + 1):
            candidate = current / relative
            if candidate.is_file():
                return candidate
            if current.parent == current:
                break
            current = current.parent
    return None


def read_config(path: Path) -> dict[str, str]:
    """subscription_id, resource_group, workspace_name from a config.json (or its `Scope`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise BackendError(f"{path}: cannot read it ({err.strerror})") from None
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise BackendError(f"{path}: not valid JSON; download it again from the portal") from None
    if not isinstance(data, dict):
        raise BackendError(f"{path}: expected a JSON object with subscription_id, …")
    scope = data.get("Scope")
    if isinstance(scope, str) and scope:
        pieces = scope.split("/")
        if len(pieces) < 9:
            raise BackendError(f"{path}: Scope {scope!r} is not a workspace's resource id")
        return {
            "subscription_id": pieces[2],
            "resource_group": pieces[4],
            "workspace_name": pieces[8],
        }
    missing = [
        k for k in ("subscription_id", "resource_group", "workspace_name") if not data.get(k)
    ]
    if missing:
        raise BackendError(
            f"{path}: missing {', '.join(missing)}; download it again from the portal"
        )
    return {k: str(data[k]) for k in ("subscription_id", "resource_group", "workspace_name")}


def find_workspace(
    subscription: str | None = None,
    resource_group: str | None = None,
    workspace: str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    start: Path | str | None = None,
) -> Workspace:
    """The workspace from flags, else the environment, else config.json, field by field.

    Reads no network and imports no Azure package; raises BackendError saying how to configure
    one when a field is found nowhere.
    """
    env = os.environ if environ is None else environ
    flags = {
        "subscription_id": subscription,
        "resource_group": resource_group,
        "workspace_name": workspace,
    }
    env_names = {
        "subscription_id": ENV_SUBSCRIPTION,
        "resource_group": ENV_RESOURCE_GROUP,
        "workspace_name": ENV_WORKSPACE,
    }
    values: dict[str, str] = {}
    sources: dict[str, str] = {}
    for key, value in flags.items():
        if value:
            values[key], sources[key] = value, "flags"
        elif env.get(env_names[key]):
            values[key], sources[key] = env[env_names[key]], f"env {env_names[key]}"
    if len(values) < 3:
        config = find_config(start)
        if config is not None:
            for key, value in read_config(config).items():
                if key not in values:
                    values[key], sources[key] = value, str(config)
    if not values:  # nothing here names one: the workspace last chosen in the Submit step
        kept = remembered()
        values, sources = dict(kept), {k: f"remembered in {remembered_path()}" for k in kept}
    missing = [k for k in flags if not values.get(k)]
    if len(missing) == 3:
        raise BackendError(NO_WORKSPACE)
    if missing:
        flag = {"subscription_id": "--subscription", "resource_group": "--resource-group"}
        names = [f"{flag.get(k, '--workspace')} (or {env_names[k]})" for k in missing]
        raise BackendError(f"Azure ML workspace incomplete: also give {', '.join(names)}")
    return Workspace(
        values["subscription_id"],
        values["resource_group"],
        values["workspace_name"],
        {_FIELD_NAMES[k]: v for k, v in sources.items()},
    )


_FIELD_NAMES = {
    "subscription_id": "subscription",
    "resource_group": "resource group",
    "workspace_name": "workspace",
}


def remembered_path() -> Path:
    return config_dir() / REMEMBERED


def remember(ws: Workspace) -> Path:
    """Keep `ws` as the workspace the next submit starts from."""
    path = remembered_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "subscription_id": ws.subscription_id,
        "resource_group": ws.resource_group,
        "workspace_name": ws.name,
    }
    write_atomic(path, json.dumps(data, indent=2) + "\n")  # a crash mid-write keeps the old one
    return path


def remembered() -> dict[str, str]:
    """The remembered workspace's fields (`subscription_id`, …), or {} when none is kept."""
    try:
        data = json.loads(remembered_path().read_text(encoding="utf-8"))
    # A damaged file is forgotten, whatever the damage: RecursionError is JSON nested too deep.
    except (OSError, ValueError, RecursionError, MemoryError):
        return {}
    keys = ("subscription_id", "resource_group", "workspace_name")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in keys):
        return {}
    return {k: data[k] for k in keys}


# ---------------------------------------------------------------------------------------------
# Credentials


def quiet_azure_logging() -> None:
    """Keep the Azure SDKs from printing to the terminal; their errors arrive as exceptions.

    azure-identity logs every failed token attempt as a WARNING, which Python's last-resort
    handler prints (a dozen lines before our one); azure-ai-ml adds its own stderr handler for
    INFO notices ("experimental class", "no tenant id appended to studio URL").
    """
    logging.getLogger("azure").addHandler(logging.NullHandler())
    logging.getLogger("azure.identity").setLevel(logging.ERROR)
    if "azure.ai.ml" in logging.Logger.manager.loggerDict:
        logging.getLogger("azure.ai.ml").setLevel(logging.ERROR)


def default_credential(environ: Mapping[str, str] | None = None) -> Any:
    """`DefaultAzureCredential` as a laptop needs it (see azureml.md §6).

    Environment (service principal), workload identity, Azure CLI and Azure Developer CLI are
    tried; managed identity, the shared token cache, VS Code, PowerShell and the broker are left
    out because probing them costs seconds where they do not exist. `AZURE_TOKEN_CREDENTIALS`
    (azure-identity's own switch, e.g. `prod` on a VM with a managed identity) wins when set.
    """
    from azure.identity import DefaultAzureCredential

    quiet_azure_logging()
    env = os.environ if environ is None else environ
    if env.get("AZURE_TOKEN_CREDENTIALS"):
        return DefaultAzureCredential(process_timeout=10)
    return DefaultAzureCredential(
        exclude_managed_identity_credential=True,
        exclude_shared_token_cache_credential=True,
        exclude_visual_studio_code_credential=True,
        exclude_powershell_credential=True,
        exclude_broker_credential=True,
        process_timeout=10,
    )


class CachedCredential:
    """Hands out the token the sign-in check got until it nears expiry.

    The Azure CLI takes a second or more per token; without this the check and the first SDK
    call would each pay it.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._tokens: dict[tuple[str, ...], Any] = {}
        self._lock = threading.Lock()

    def get_token(self, *scopes: str, **kwargs: Any) -> Any:
        key = tuple(scopes)
        plain = not kwargs or (set(kwargs) <= {"tenant_id"} and not kwargs.get("tenant_id"))
        with self._lock:
            token = self._tokens.get(key)
            if plain and token is not None and token.expires_on - time.time() > 300:
                return token
        token = self.inner.get_token(*scopes, **kwargs)
        if plain:
            with self._lock:
                self._tokens[key] = token
        return token

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()


def check_sign_in(credential: Any, timeout: float = SIGN_IN_TIMEOUT) -> None:
    """Ask `credential` for an ARM token within `timeout` s; BackendError says what to do.

    The token request runs in a daemon thread: a credential that hangs (an unreachable
    metadata endpoint, a CLI waiting on something) costs `timeout`, never the app's exit.
    """
    outcome: list[BaseException | None] = []

    def ask() -> None:
        try:
            credential.get_token(ARM_SCOPE)
        except BaseException as err:  # reported to the caller, never raised in the thread
            outcome.append(err)
        else:
            outcome.append(None)

    thread = threading.Thread(target=ask, name="azure-sign-in", daemon=True)
    thread.start()
    thread.join(timeout)
    if not outcome:
        raise BackendError(
            f"signing in to Azure did not finish within {timeout:.0f} s: check your network, "
            "then run `az login` again"
        )
    err = outcome[0]
    if err is None:
        return
    raise BackendError(sign_in_message(err)) from None


# What DefaultAzureCredential's message lists under "Attempted credentials:", one per line.
_ATTEMPT = re.compile(r"^\s*(\w+Credential): (.*)$", re.M)
_UNREACHABLE = re.compile(
    r"Failed to resolve|Name or service not known|Temporary failure in name resolution|"
    r"Connection refused|Failed to establish a new connection|timed out|Network is unreachable|"
    r"No route to host|ConnectionError|ServiceRequestError",
    re.I,
)
_HOST = re.compile(r"host='([^']+)'")
_CAUSE = re.compile(r"\(\[Errno [-\d]+\] ([^)]+)\)|(Connection refused|timed out)")
_WHO = {
    "EnvironmentCredential": "the service principal in AZURE_TENANT_ID/AZURE_CLIENT_ID",
    "WorkloadIdentityCredential": "the workload identity in AZURE_FEDERATED_TOKEN_FILE",
    "AzureCliCredential": "the Azure CLI (`az login`)",
    "AzureDeveloperCliCredential": "the Azure Developer CLI (`azd auth login`)",
    "ManagedIdentityCredential": "this machine's managed identity",
}


def sign_in_message(err: BaseException) -> str:
    """One line for a failed token request: the credential tried and the real cause, or what
    to run or set when none was configured."""
    text = str(err)
    lower = text.lower()
    if "expired" in lower and ("aadsts" in lower or "login" in lower):
        return "your Azure sign-in has expired: run `az login` again"
    for name, reason in _ATTEMPT.findall(text):
        who = f"{name} ({_WHO[name]})" if name in _WHO else name
        if _UNREACHABLE.search(reason):
            host = _HOST.search(reason)
            cause = _CAUSE.search(reason)
            where = host.group(1) if host else "the Azure sign-in endpoint"
            why = f" ({cause.group(1) or cause.group(2)})" if cause else ""
            return (
                f"signing in to Azure with {who} failed: {where} cannot be reached{why}; "
                "check the network, DNS or proxy (HTTPS_PROXY)"
            )
        code = re.search(r"AADSTS\d+[^.\n]*", reason)
        if code:  # configured, reached, and refused: say by whom and why
            return f"Azure refused the sign-in with {who}: {code.group()}"
        # Anything else is a source that is not set up here ("unavailable", "not found on path").
    if "aadsts" in lower and "tenant" in lower:
        return "Azure refused the sign-in for this tenant: run `az login --tenant <tenant id>`"
    return NOT_SIGNED_IN
