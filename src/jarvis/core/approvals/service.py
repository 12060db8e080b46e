"""Asking a human: create the pending item first, then show it, then wait for one answer."""

from __future__ import annotations

import asyncio
from typing import Literal

from jarvis.core.approvals.channel import ChannelRegistry
from jarvis.core.approvals.pending import PendingApprovalStore, Status
from jarvis.core.approvals.request import ApprovalRequest

AskResult = Status | Literal["no_approver"]


class ApprovalService:
    def __init__(self, store: PendingApprovalStore, channels: ChannelRegistry) -> None:
        self.store = store
        self.channels = channels

    async def ask(self, request: ApprovalRequest, abort: asyncio.Event) -> AskResult:
        # The place for the answer exists before anyone can see the question.
        await self.store.create(request)
        channel = self.channels.get(request.session_id)
        if channel is None or not await channel.deliver(request):
            await self.store.cancel(request.id)
            return "no_approver"
        try:
            status = await self.store.wait(request.id, request.timeout_sec, abort)
        except asyncio.CancelledError:
            # The turn was aborted while waiting: finish the item and close every modal.
            await self.store.cancel(request.id)
            await channel.resolved(request, "cancelled")
            raise
        await channel.resolved(request, status)
        return status
