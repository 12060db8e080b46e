"""The approval broker: one per session, shared by every connection (tab, window) of it.

A request goes to every open connection; the first answer wins (the pending store decides);
`approval_resolved` closes the other modals; a connection that attaches while a request is
pending is shown it; with no connection at all the request is not delivered (→ `no_approver`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from jarvis.core.approvals.channel import ApprovalChannel, ChannelRegistry
from jarvis.core.approvals.pending import Status
from jarvis.core.approvals.request import ApprovalRequest

# A chunk of streamed text: the event's dict, or (text_delta, thinking_delta) from a session.
Update = dict[str, Any] | tuple[str, str]


class Connection:
    """One WebSocket: events are queued and written by one writer task, never blocking a turn.

    Streamed text (`message_update`) that arrives while the previous one is still queued is
    merged into it as it comes, so a fast stream costs one frame per writer wake-up, not one per
    chunk. Other events are JSON text from the moment they are queued (an event shown in several
    tabs is dumped once, by the caller)."""

    def __init__(self, user_id: str) -> None:
        self.user_id = user_id
        self._queued: list[str | list[Update]] = []  # frames, or a run of streamed text
        self._closed = False
        self._waiter: asyncio.Future[None] | None = None  # the writer, when it waits

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue an event: a dict, or its JSON text."""
        if self._closed:
            return
        queued = self._queued
        if isinstance(message, str):
            queued.append(message)
        elif message.get("type") == "message_update":
            self._streamed(message)
            return
        else:
            queued.append(frame(message))
        self._wake()

    def update(self, text: str, thinking: str) -> None:
        """Queue a chunk of streamed text (the hot path: once per chunk and tab)."""
        self._streamed((text, thinking))

    def _streamed(self, update: Update) -> None:
        if self._closed:
            return
        queued = self._queued
        if queued and type(queued[-1]) is list:
            queued[-1].append(update)  # the writer was woken by the run's first update
            return
        queued.append([update])
        self._wake()

    def close(self) -> None:
        """What is queued still goes out; nothing after."""
        self._closed = True
        self._wake()

    async def frames(self) -> list[str] | None:
        """Everything queued since the last call, as frames in order (waits for something);
        None once the connection is closed and all was taken."""
        if not self._queued and not self._closed:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
            await asyncio.sleep(0)  # one tick for the producer: a streamed answer goes in one go
        if not self._queued:
            return None
        queued, self._queued = self._queued, []
        return [item if isinstance(item, str) else frame(joined(item)) for item in queued]

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


def frame(message: dict[str, Any]) -> str:
    """An event's JSON text as it goes on the wire."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def joined(updates: list[Update]) -> dict[str, Any]:
    """A run of `message_update` events as one, their deltas joined in order (linear time)."""
    first = updates[0]
    if len(updates) == 1 and isinstance(first, dict):
        return first
    texts = [
        (u.get("text_delta", ""), u.get("thinking_delta", "")) if isinstance(u, dict) else u
        for u in updates
    ]
    return {
        **(first if isinstance(first, dict) else {"type": "message_update"}),
        "text_delta": "".join(text for text, _ in texts),
        "thinking_delta": "".join(thinking for _, thinking in texts),
    }


# Told (session id, tool call id) when a request is granted: the tool starts running then.
Granted = Callable[[str, str], None]


class ApprovalBroker(ApprovalChannel):
    def __init__(
        self, session_id: str, *, shared: bool = False, granted: Granted | None = None
    ) -> None:
        self.session_id = session_id
        self.granted = granted
        # With several processes, a tab may be attached to another one: always deliver (the
        # database broadcasts), and nobody answering means the request times out.
        self.shared = shared
        self.connections: set[Connection] = set()
        self.pending: dict[str, ApprovalRequest] = {}
        self.remote: set[str] = set()

    def attach(self, connection: Connection) -> None:
        self.connections.add(connection)
        for request in self.pending.values():
            connection.send(request.model_dump(mode="json"))

    def detach(self, connection: Connection) -> None:
        self.connections.discard(connection)

    def broadcast(self, message: dict[str, Any]) -> None:
        for connection in list(self.connections):
            connection.send(message)

    async def deliver(self, request: ApprovalRequest) -> bool:
        if not self.connections and not self.shared:
            return False
        self.remote.discard(request.id)  # ours: resolved() below closes it, not a notification
        if request.id not in self.pending:  # the database notification may have shown it first
            self.pending[request.id] = request
            self.broadcast(request.model_dump(mode="json"))
        return True

    async def resolved(self, request: ApprovalRequest, status: Status) -> None:
        self.pending.pop(request.id, None)
        if self.granted is not None and status in ("allow", "always"):
            self.granted(self.session_id, request.tool_call_id)
        self.broadcast(
            {
                "type": "approval_resolved",
                "id": request.id,
                "status": status,
                "timeout": status == "timeout",
            }
        )

    def remote_request(self, request: ApprovalRequest) -> None:
        """A request made by another process for this session."""
        if request.id not in self.pending:
            self.remote.add(request.id)
            self.pending[request.id] = request
            self.broadcast(request.model_dump(mode="json"))

    def remote_resolved(self, item_id: str, status: str) -> None:
        if item_id in self.remote:
            self.remote.discard(item_id)
            self.pending.pop(item_id, None)
            self.broadcast(
                {
                    "type": "approval_resolved",
                    "id": item_id,
                    "status": status,
                    "timeout": status == "timeout",
                }
            )


class BrokerRegistry:
    """Brokers by session id, registered as the sessions' approval channels."""

    def __init__(
        self, channels: ChannelRegistry, *, shared: bool = False, granted: Granted | None = None
    ) -> None:
        self.channels = channels
        self.shared = shared
        self.granted = granted
        self._brokers: dict[str, ApprovalBroker] = {}

    def for_session(self, session_id: str) -> ApprovalBroker:
        broker = self._brokers.get(session_id)
        if broker is None:
            broker = ApprovalBroker(session_id, shared=self.shared, granted=self.granted)
            self._brokers[session_id] = broker
            self.channels.attach(session_id, broker)
        return broker

    def existing(self, session_id: str) -> ApprovalBroker | None:
        return self._brokers.get(session_id)
