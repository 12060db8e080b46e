"""Fixtures shared across the suite."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from tests.support.order import group_shared_setup, longest_first
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first, so that under `--dist loadgroup` (dev.py) none is the last
    thing a worker starts while the other waits; a module whose tests share a module-scoped
    fixture (a model server, an embedder) stays on one worker, which starts it once."""
    items[:] = longest_first(items)
    group_shared_setup(items)
