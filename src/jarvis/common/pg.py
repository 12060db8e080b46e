"""The one way stores open PostgreSQL: a psycopg 3 async pool, schema created idempotently."""

from __future__ import annotations

from typing import ClassVar, Self

import psycopg
from psycopg_pool import AsyncConnectionPool

_SCHEMA_LOCK = 0x4A415256  # "JARV"


def lazy_pool(dsn: str, *, max_size: int = 4) -> AsyncConnectionPool:
    """A pool that connects on `open_pool` (so assembly can stay synchronous)."""
    return AsyncConnectionPool(dsn, min_size=1, max_size=max_size, open=False)


async def open_pool(pool: AsyncConnectionPool, schema: str) -> None:
    # One direct attempt first: a wrong DSN fails in seconds with the server's own message,
    # instead of the pool retrying (and logging) for its whole timeout.
    assert isinstance(pool.conninfo, str)  # lazy_pool always passes a DSN string
    probe = await psycopg.AsyncConnection.connect(pool.conninfo, connect_timeout=5)
    await probe.close()
    await pool.open(wait=True, timeout=10)
    async with pool.connection() as conn, conn.transaction():
        # Processes starting together would race on CREATE … IF NOT EXISTS (a unique-key error
        # on the catalog); one lock makes the schema step run one process at a time.
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        await conn.execute(schema)  # idempotent: CREATE … IF NOT EXISTS only


class PoolBacked:
    """The connect / open / close part every PostgreSQL store shares."""

    schema: ClassVar[str] = ""
    max_size: ClassVar[int] = 4

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self.pool = pool

    @classmethod
    async def connect(cls, dsn: str) -> Self:
        store = cls(lazy_pool(dsn, max_size=cls.max_size))
        await store.open()
        return store

    async def open(self) -> None:
        await open_pool(self.pool, self.schema)

    async def aclose(self) -> None:
        await self.pool.close()
