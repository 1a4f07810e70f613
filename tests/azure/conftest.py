"""Fixtures for the Azure ML backend tests: Azurite, the workspace emulator, a signed-in backend.

The real azure-ai-ml client talks HTTPS to the emulator on loopback: `AZUREML_DEV_URL_MFE`
points ARM at it and `REQUESTS_CA_BUNDLE` trusts its test CA. Azurite missing fails (never
skips) with the command that installs it. Jobs the emulator ran are stopped after each test.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.azure.emulator import TOKEN, WorkspaceEmulator
from tests.backends.conftest import _kill_leftovers
from tests.logs.azurite import Azurite
from tui.backends.azureml import AzureMLBackend
from tui.backends.azureml.workspace import Workspace

SCRIPTS = Path(__file__).parent / "scripts"
AZURE_ENV = (
    "AZURE_TENANT_ID",
    "AZURE_CLIENT_ID",
    "AZURE_CLIENT_SECRET",
    "AZURE_CLIENT_CERTIFICATE_PATH",
    "AZURE_USERNAME",
    "AZURE_PASSWORD",
    "AZURE_FEDERATED_TOKEN_FILE",
    "AZURE_TOKEN_CREDENTIALS",
    "AZURE_SUBSCRIPTION_ID",
    "AZURE_RESOURCE_GROUP",
    "AZUREML_WORKSPACE_NAME",
    "IDENTITY_ENDPOINT",
    "MSI_ENDPOINT",
)


class StaticCredential:
    """A credential that always has the emulator's token (what a signed-in user has)."""

    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self.calls = 0

    def get_token(self, *scopes: str, **kwargs: object):
        from azure.core.credentials import AccessToken

        self.calls += 1
        return AccessToken(self.token, int(time.time()) + 3600)


@pytest.fixture(scope="session")
def emulator_session(
    azurite: Azurite, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WorkspaceEmulator]:
    root = tmp_path_factory.mktemp("workspace")
    with WorkspaceEmulator(azurite, root) as em:
        em.register_code(SCRIPTS)
        yield em
    _kill_leftovers(root / "jobs")


@pytest.fixture
def emulator(emulator_session: WorkspaceEmulator, monkeypatch) -> Iterator[WorkspaceEmulator]:
    """The session's emulator with default settings, reachable by azure-ai-ml (ARM base and
    CA in the environment); the test's jobs are stopped after it."""
    for name in AZURE_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AZUREML_DEV_URL_MFE", emulator_session.base_url)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(emulator_session.ca_file))
    emulator_session.reset()
    yield emulator_session
    emulator_session.reset()
    _kill_leftovers(emulator_session.root / "jobs")


def workspace_of(em: WorkspaceEmulator) -> Workspace:
    return Workspace(em.subscription, em.resource_group, em.workspace, {"workspace": "test"})


@pytest.fixture
def backend(emulator: WorkspaceEmulator) -> AzureMLBackend:
    """A backend signed in to the emulator's workspace with a static token."""
    return AzureMLBackend(workspace_of(emulator), StaticCredential())
