"""The order of one server's calls: read-only calls share, every other call runs alone, and
calls start in the order they were made (a read sent after a write sees the write)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator


class CallOrder:
    def __init__(self) -> None:
        self._changed = asyncio.Condition()
        self._queue: deque[object] = deque()
        self._readers = 0
        self._writing = False

    @contextlib.asynccontextmanager
    async def turn(self, *, shared: bool) -> AsyncIterator[None]:
        ticket = object()
        async with self._changed:
            self._queue.append(ticket)
            try:
                await self._changed.wait_for(lambda: self._may_start(ticket, shared))
            finally:
                self._queue.remove(ticket)
                self._changed.notify_all()  # the next in line may be a read that can join
            if shared:
                self._readers += 1
            else:
                self._writing = True
        try:
            yield
        finally:
            async with self._changed:
                if shared:
                    self._readers -= 1
                else:
                    self._writing = False
                self._changed.notify_all()

    def _may_start(self, ticket: object, shared: bool) -> bool:
        if self._queue[0] is not ticket or self._writing:
            return False
        return shared or self._readers == 0
