"""Fixtures for the log tests: a real Azurite for the session, a fresh append blob per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.logs.azurite import AZURITE_BIN, MISSING, AppendBlob, Azurite


@pytest.fixture(scope="session")
def azurite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Azurite]:
    """Azurite on a free loopback port; fails (never skips) when it is not installed."""
    if not AZURITE_BIN.exists():
        pytest.fail(MISSING, pytrace=False)
    with Azurite(tmp_path_factory.mktemp("azurite")) as server:
        yield server


@pytest.fixture
def blob(azurite: Azurite) -> AppendBlob:
    """An empty append blob named like an Azure ML rank log, in its own container."""
    return azurite.append_blob()
