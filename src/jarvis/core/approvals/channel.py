"""How an approval request reaches a human: the terminal asks inline, the Web broker broadcasts."""

from __future__ import annotations

from jarvis.core.approvals.pending import Status
from jarvis.core.approvals.request import ApprovalRequest


class ApprovalChannel:
    """Base class. `deliver` returns False when nobody can see the request (→ `no_approver`)."""

    async def deliver(self, request: ApprovalRequest) -> bool:
        return False

    async def resolved(self, request: ApprovalRequest, status: Status) -> None:
        """The item is finished (answered, timed out or cancelled): close what is open."""


class ChannelRegistry:
    """The approval channel of each session (one per session, not per connection)."""

    def __init__(self) -> None:
        self._channels: dict[str, ApprovalChannel] = {}

    def attach(self, session_id: str, channel: ApprovalChannel) -> None:
        self._channels[session_id] = channel

    def detach(self, session_id: str, channel: ApprovalChannel) -> None:
        if self._channels.get(session_id) is channel:
            del self._channels[session_id]

    def get(self, session_id: str) -> ApprovalChannel | None:
        return self._channels.get(session_id)
