from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.tools._helpers import Site, local_site


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with local_site() as running:
        yield running
