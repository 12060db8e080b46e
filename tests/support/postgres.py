"""A throwaway schema in the test PostgreSQL; skipped on machines without one (failed in CI)."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator

import psycopg
import pytest

from tests.support.hang import HANG_GUARD_SEC

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


@contextlib.asynccontextmanager
async def scratch_schema(dsn: str, prefix: str = "jarvis_test") -> AsyncIterator[str]:
    """A DSN whose search_path is a fresh schema, dropped afterwards."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    async with await psycopg.AsyncConnection.connect(
        dsn, autocommit=True, connect_timeout=int(HANG_GUARD_SEC)
    ) as admin:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        sep = "&" if "?" in dsn else "?"
        try:
            yield f"{dsn}{sep}options=-csearch_path%3D{schema}"
        finally:
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


async def postgres_dsn() -> AsyncIterator[str]:
    """Yield a fresh schema's DSN; skip (or fail, when CI=true) without PostgreSQL."""
    dsn = os.environ.get("JARVIS_TEST_POSTGRES_DSN", DEFAULT_DSN)
    try:
        probe = await psycopg.AsyncConnection.connect(dsn, connect_timeout=int(HANG_GUARD_SEC))
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL not reachable at {dsn} ({exc.__class__.__name__})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs PostgreSQL: {reason}")
        pytest.skip(reason)
    await probe.close()
    async with scratch_schema(dsn) as scratch:
        yield scratch
