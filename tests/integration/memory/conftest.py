"""The memory store conformance fixture: every test taking `services` runs on each store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from jarvis.common.pg import lazy_pool
from jarvis.memory import InMemoryItemStore, InMemoryWorkingStore, MemoryService, MemorySettings
from jarvis.memory.pg_store import PostgresItemStore
from jarvis.memory.pg_working import PostgresWorkingStore
from jarvis.memory.sqlite_store import SqliteItemStore
from tests.support.postgres import postgres_dsn


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def services(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """Two MemoryServices on one storage."""
    settings = MemorySettings()
    if request.param == "memory":
        store, working = InMemoryItemStore(), InMemoryWorkingStore()
        yield MemoryService(settings, store, working), MemoryService(settings, store, working)
        return
    if request.param == "sqlite":
        working = InMemoryWorkingStore()  # working memory is per process on the files backend
        stores = [SqliteItemStore(tmp_path / "memory.db") for _ in range(2)]
        for store in stores:
            await store.open()
        yield tuple(MemoryService(settings, store, working) for store in stores)
        for store in stores:
            await store.aclose()
        return
    async for dsn in postgres_dsn():
        parts = [
            (PostgresItemStore(lazy_pool(dsn)), PostgresWorkingStore(lazy_pool(dsn)))
            for _ in range(2)
        ]
        for store, working in parts:
            await store.open()
            await working.open()
        yield tuple(MemoryService(settings, store, working) for store, working in parts)
        for store, working in parts:
            await store.aclose()
            await working.aclose()
