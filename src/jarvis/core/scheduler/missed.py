"""Which due runs start after downtime (pure).

A due time counts as missed when it is older than the grace window when first seen (the
process was down, or the machine slept). Policy, per schedule:

* `run_once` (default): the latest missed due time runs once; older ones are skipped;
* `skip`: missed due times never run; the next one on time does.

Due times inside the grace window always run: that is "on time" for a ticker that wakes late.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

MissedPolicy = Literal["run_once", "skip"]
DEFAULT_GRACE = timedelta(minutes=2)


def runs_to_start(
    due: list[datetime],
    now: datetime,
    policy: MissedPolicy,
    grace: timedelta = DEFAULT_GRACE,
) -> list[datetime]:
    """The due times (in order) to start now, out of `due` (all ≤ now, ascending)."""
    on_time = [d for d in due if now - d <= grace]
    missed = [d for d in due if now - d > grace]
    if policy == "run_once" and missed:
        return [missed[-1], *on_time]
    return on_time
