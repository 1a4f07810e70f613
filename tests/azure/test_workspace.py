"""Which workspace (flags, environment, config.json), and a sign-in check that never hangs."""

from __future__ import annotations

import json
import threading

import pytest

from tests.azure.conftest import AZURE_ENV, StaticCredential
from tui.backends.azureml import AzureMLBackend
from tui.backends.azureml.workspace import (
    NO_WORKSPACE,
    NOT_SIGNED_IN,
    check_sign_in,
    default_credential,
    find_config,
    find_workspace,
)
from tui.backends.base import BackendError

CONFIG = {"subscription_id": "sub-c", "resource_group": "rg-c", "workspace_name": "ws-c"}


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for name in AZURE_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def write(path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_flags_then_environment_then_config_field_by_field(tmp_path, monkeypatch) -> None:
    write(tmp_path / "config.json", CONFIG)
    monkeypatch.setenv("AZURE_RESOURCE_GROUP", "rg-e")
    ws = find_workspace(workspace="ws-f")
    assert (ws.subscription_id, ws.resource_group, ws.name) == ("sub-c", "rg-e", "ws-f")
    assert ws.sources == {
        "subscription": str(tmp_path / "config.json"),
        "resource group": "env AZURE_RESOURCE_GROUP",
        "workspace": "flags",
    }


@pytest.mark.parametrize(
    "where",
    [
        ".azureml/config.json",
        "aml_config/config.json",
        "config.json",
        "project.json",
        ".azureml/project.json",
    ],
)
def test_config_is_found_where_mlclient_from_config_finds_it(tmp_path, where) -> None:
    from azure.ai.ml import MLClient

    write(tmp_path / where, CONFIG)
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    ws = find_workspace(start=deep)
    sdk = MLClient.from_config(StaticCredential(), path=str(deep))
    assert (ws.subscription_id, ws.resource_group, ws.name) == (
        sdk.subscription_id,
        sdk.resource_group_name,
        sdk.workspace_name,
    )
    assert ws.sources["workspace"] == str(tmp_path / where)


def test_search_order_is_mlclients(tmp_path) -> None:
    """`.azureml/config.json` two levels up wins over `config.json` right here, as in the SDK."""
    write(tmp_path / ".azureml" / "config.json", CONFIG)
    write(tmp_path / "a" / "b" / "config.json", {**CONFIG, "workspace_name": "near"})
    assert find_config(tmp_path / "a" / "b") == tmp_path / ".azureml" / "config.json"


def test_a_scope_string_names_the_workspace(tmp_path) -> None:
    scope = (
        "/subscriptions/s1/resourceGroups/r1/providers/Microsoft.MachineLearningServices"
        "/workspaces/w1"
    )
    write(tmp_path / "config.json", {"Scope": scope})
    ws = find_workspace()
    assert (ws.subscription_id, ws.resource_group, ws.name) == ("s1", "r1", "w1")
    assert ws.arm_id == scope


def test_nothing_configured_says_every_way_to_configure_one() -> None:
    with pytest.raises(BackendError) as caught:
        find_workspace()
    assert str(caught.value) == NO_WORKSPACE
    assert "--workspace" in NO_WORKSPACE and "AZUREML_WORKSPACE_NAME" in NO_WORKSPACE
    assert "config.json" in NO_WORKSPACE


def test_a_partial_workspace_names_what_is_missing(monkeypatch) -> None:
    monkeypatch.setenv("AZUREML_WORKSPACE_NAME", "ws")
    with pytest.raises(
        BackendError, match=r"also give --subscription \(or AZURE_SUBSCRIPTION_ID\)"
    ):
        find_workspace(resource_group="rg")


def test_a_broken_config_file_is_named(tmp_path) -> None:
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(BackendError, match=r"config\.json: not valid JSON"):
        find_workspace()
    write(tmp_path / "config.json", {"subscription_id": "s"})
    with pytest.raises(BackendError, match="missing resource_group, workspace_name"):
        find_workspace()


def test_no_credentials_fail_in_one_line_without_probing_slow_sources(tmp_path, monkeypatch):
    """The real DefaultAzureCredential, with no az/azd on PATH and no env credentials.

    How long it takes is a figure for tests/benchmarks/bench_stops.py; here, that the chain
    holds none of the sources whose probe costs seconds where they do not exist."""
    monkeypatch.setenv("PATH", str(tmp_path))
    chain = [type(c).__name__ for c in default_credential({}).credentials]
    slow = ("ManagedIdentity", "SharedTokenCache", "VisualStudioCode", "PowerShell", "Broker")
    assert chain and not [name for name in chain if name.startswith(slow)], chain
    backend = AzureMLBackend(subscription="s", resource_group="r", workspace_name="w")
    with pytest.raises(BackendError) as caught:
        backend.sign_in()
    assert str(caught.value) == NOT_SIGNED_IN
    assert caught.value.__cause__ is None


def test_a_credential_that_hangs_is_given_up_on_at_the_deadline() -> None:
    release, returned = threading.Event(), threading.Event()

    class Hanging:
        def get_token(self, *scopes, **kwargs):
            release.wait()  # until the test lets it go: longer than any deadline
            returned.set()

    with pytest.raises(BackendError, match="did not finish within 0 s: check your network"):
        check_sign_in(Hanging(), timeout=0.3)
    assert not returned.is_set()  # given up on while the credential still hung
    release.set()


def test_the_sign_in_token_is_reused_by_the_client() -> None:
    credential = StaticCredential()
    backend = AzureMLBackend(
        subscription="s", resource_group="r", workspace_name="w", credential=credential
    )
    backend.sign_in()
    backend.sign_in()
    backend._credential.get_token("https://management.azure.com/.default")
    assert credential.calls == 1
