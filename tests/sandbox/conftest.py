"""Real bubblewrap: without it these tests skip, and under CI=true they fail (.ci/run installs
the Debian `bubblewrap` package)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from jarvis.core.confine.probe import probe
from tests.sandbox.world import World, world


@pytest.fixture(scope="session")
def bwrap() -> str:
    found = probe()
    if not found.works:
        message = f"bubblewrap does not work here: {found.reason}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found.bwrap


@pytest.fixture
def w(monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    """A planted home, workspace and listeners (`world.py`)."""
    with world(monkeypatch) as planted:
        yield planted
