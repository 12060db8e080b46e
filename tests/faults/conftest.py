"""Fixtures of the fault-injection suite."""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

from tests.support.tcp_proxy import TcpProxy, tcp_proxy


@pytest.fixture
async def proxy(dsn: str) -> AsyncIterator[TcpProxy]:
    """A cuttable TCP path to the test PostgreSQL (use `through(proxy, dsn)` as the DSN)."""
    parts = urlsplit(dsn)
    with tcp_proxy(parts.hostname or "127.0.0.1", parts.port or 5432) as running:
        yield running
