"""The one way stores open PostgreSQL: a psycopg 3 async pool, schema created idempotently."""

from __future__ import annotations

from psycopg_pool import AsyncConnectionPool


async def open_pool(dsn: str, schema: str, *, max_size: int = 4) -> AsyncConnectionPool:
    pool = AsyncConnectionPool(dsn, min_size=1, max_size=max_size, open=False)
    await pool.open()
    async with pool.connection() as conn:
        await conn.execute(schema)  # idempotent: CREATE … IF NOT EXISTS only
    return pool
