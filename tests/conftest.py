"""Fixtures shared across the suite."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from tests.support.postgres import postgres_dsn


@pytest.fixture
async def dsn() -> AsyncIterator[str]:
    """A fresh schema in the test PostgreSQL (skipped without one locally, failed in CI)."""
    async for value in postgres_dsn():
        yield value


# The suite reads Korean by default: a developer's English locale must not change which
# language every `jarvis` the tests start speaks (tests of the locale set it themselves).
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
