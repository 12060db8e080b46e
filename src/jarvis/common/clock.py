"""Time and ids are made at the boundary and passed in, so judgement code stays pure."""

from __future__ import annotations

import time
import uuid


def now_ms() -> int:
    return int(time.time() * 1000)


def new_id() -> str:
    return uuid.uuid4().hex


class Clock:
    """Injectable wall clock; tests pass a fixed one."""

    def now_ms(self) -> int:
        return now_ms()


class SystemClock(Clock):
    pass
