"""A throwaway schema in the test PostgreSQL; skipped on machines without one (failed in CI)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import psycopg
import pytest

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


async def postgres_dsn() -> AsyncIterator[str]:
    """Yield a DSN whose search_path is a fresh schema, dropped afterwards."""
    dsn = os.environ.get("JARVIS_TEST_POSTGRES_DSN", DEFAULT_DSN)
    try:
        admin = await psycopg.AsyncConnection.connect(dsn, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL not reachable at {dsn} ({exc.__class__.__name__})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs PostgreSQL: {reason}")
        pytest.skip(reason)
    schema = f"jarvis_test_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in dsn else "?"
    try:
        yield f"{dsn}{sep}options=-csearch_path%3D{schema}"
    finally:
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()
