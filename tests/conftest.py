"""Fixtures shared across the suite."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.postgres import postgres_dsn


@pytest.fixture
async def dsn() -> AsyncIterator[str]:
    """A fresh schema in the test PostgreSQL (skipped without one locally, failed in CI)."""
    async for value in postgres_dsn():
        yield value
