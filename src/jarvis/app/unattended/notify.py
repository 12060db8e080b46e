"""`proactive_message` to every open window of a person (seed 004's events table: text, kind,
message_id), on this process and, with PostgreSQL, on every other one (LISTEN/NOTIFY).

With a database each message goes out once through NOTIFY and every process, this one
included, hands it to its own windows: a run on process A reaches a tab on process B once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from jarvis.common.logging import get_logger
from jarvis.common.pg import lazy_pool

_log = get_logger("jarvis.unattended")
CHANNEL = "jarvis_proactive"


def channel_for(dsn: str) -> str:
    """NOTIFY channels are per database, not per schema: one per deployment (its DSN)."""
    return f"{CHANNEL}_{hashlib.sha256(dsn.encode()).hexdigest()[:12]}"


Sink = Callable[[dict[str, Any]], None]
_RETRY_SEC = 0.5


class ProactiveHub:
    def __init__(
        self, dsn: str | None = None, terminal: Callable[[str], None] | None = None
    ) -> None:
        self.dsn = dsn
        self.channel = channel_for(dsn) if dsn else CHANNEL
        # Reminders published by this process are also shown in its terminal.
        self.terminal = terminal
        self._sinks: dict[str, list[Sink]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._pool: AsyncConnectionPool | None = lazy_pool(dsn, max_size=2) if dsn else None
        self.sent: list[dict[str, Any]] = []  # what this process published (CLI, tests)

    def attach(self, user_id: str, sink: Sink) -> Callable[[], None]:
        """Deliver this person's messages to `sink` (one open window) until detached."""
        self._sinks.setdefault(user_id, []).append(sink)

        def detach() -> None:
            sinks = self._sinks.get(user_id, [])
            if sink in sinks:
                sinks.remove(sink)

        return detach

    async def start(self) -> None:
        if self.dsn and self._listener is None:
            assert self._pool is not None
            await self._pool.open(wait=True, timeout=10)
            self._listener = asyncio.create_task(self._listen())
            await asyncio.wait_for(self._listening.wait(), 10)

    async def aclose(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        if self._pool is not None:
            await self._pool.close()

    async def publish(
        self, user_id: str, text: str, kind: str, message_id: str, **extra: Any
    ) -> None:
        event = {
            "type": "proactive_message",
            "text": text,
            "kind": kind,
            "message_id": message_id,
            **extra,
        }
        self.sent.append({"user": user_id, **event})
        if self.terminal is not None and kind == "proactive":
            self.terminal(text)
        await self.send(user_id, event)

    async def send(self, user_id: str, event: dict[str, Any]) -> None:
        """Any event (`proactive_message`, `focus_state`, `focus_panel`) to every open window
        of the person, on every process."""
        if not self.dsn:
            self._deliver(user_id, event)
            return
        payload = json.dumps({"user": user_id, "event": event}, ensure_ascii=False)
        assert self._pool is not None
        async with self._pool.connection() as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))

    def _deliver(self, user_id: str, event: dict[str, Any]) -> None:
        for sink in list(self._sinks.get(user_id, [])):
            try:
                sink(event)
            except Exception:  # one closed window never stops the others
                _log.exception("proactive message not delivered to one window")

    async def _listen(self) -> None:
        assert self.dsn is not None
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {self.channel}")
                    self._listening.set()
                    async for note in conn.notifies():
                        data = json.loads(note.payload)
                        self._deliver(str(data["user"]), data["event"])
            except (psycopg.Error, OSError) as exc:
                _log.warning("proactive messages: listener lost (%s); reconnecting", exc)
                await asyncio.sleep(_RETRY_SEC)
