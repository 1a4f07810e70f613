"""Fixtures shared by several test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.logs.azurite import AZURITE_BIN, MISSING, Azurite


@pytest.fixture(scope="session")
def azurite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Azurite]:
    """One Azurite on a free loopback port for the whole run; fails (never skips) when missing."""
    if not AZURITE_BIN.exists():
        pytest.fail(MISSING, pytrace=False)
    with Azurite(tmp_path_factory.mktemp("azurite")) as server:
        yield server
