"""The one way stores open PostgreSQL: a psycopg 3 async pool, schema created idempotently."""

from __future__ import annotations

from typing import ClassVar, Self

import psycopg
from psycopg_pool import AsyncConnectionPool, pool_async
from psycopg_pool.base import AttemptWithBackoff

_SCHEMA_LOCK = 0x4A415256  # "JARV"


# How long a caller waits for a connection before the call fails with "database unavailable"
# (psycopg_pool's default, 30 s, left turns hanging through an outage).
POOL_WAIT_SEC = 3.0
CONNECT_TIMEOUT_SEC = 3


class _BoundedBackoff(AttemptWithBackoff):
    """psycopg_pool doubles its reconnect delay without bound (1, 2, 4, 8 s …), so after a short
    outage a pool could sit idle for seconds with the database back. Retry at most every 0.5 s
    (a cheap connect attempt to a database that refuses at once)."""

    INITIAL_DELAY = 0.1
    MAX_DELAY = 0.5

    def update_delay(self, now: float) -> None:
        super().update_delay(now)
        self.delay = min(self.delay, self.MAX_DELAY)


# ponytail: psycopg_pool has no setting for its backoff; it looks the class up by name.
pool_async.AttemptWithBackoff = _BoundedBackoff  # type: ignore[attr-defined]


def lazy_pool(dsn: str, *, max_size: int = 4) -> AsyncConnectionPool:
    """A pool that connects on `open_pool` (so assembly can stay synchronous). Connections are
    checked before use, so one broken by a database restart is replaced, not handed out."""
    return AsyncConnectionPool(
        dsn,
        min_size=1,
        max_size=max_size,
        open=False,
        check=AsyncConnectionPool.check_connection,
        timeout=POOL_WAIT_SEC,
        kwargs={"connect_timeout": CONNECT_TIMEOUT_SEC},
    )


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
        await conn.execute(schema)  # CREATE … IF NOT EXISTS only: safe at every start


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
