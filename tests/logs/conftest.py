"""Fixtures for the log tests: a real Azurite for the session, a fresh append blob per test."""

from __future__ import annotations

import pytest

from tests.logs.azurite import AppendBlob, Azurite


@pytest.fixture
def blob(azurite: Azurite) -> AppendBlob:
    """An empty append blob named like an Azure ML rank log, in its own container."""
    return azurite.append_blob()
