"""A server's request for user input (MCP elicitation) as a human-in-the-loop event.

Like an approval: the request goes to every window of the session whose tool call caused it
(`mcp_elicitation` event), the first answer wins (later ones hear "already answered"), every
window then sees `mcp_elicitation_resolved`, and nobody answering in time declines it as
"cancel" (a timeout is not the person saying no).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel

from jarvis.common.clock import new_id

Action = Literal["accept", "decline", "cancel"]
Emit = Callable[[BaseModel], None]
DEFAULT_TIMEOUT_SEC: Final = 300.0


class ElicitationRequest(BaseModel):
    type: Literal["mcp_elicitation"] = "mcp_elicitation"
    id: str
    session_id: str
    server: str
    message: str
    # JSON schema of the form (flat object of primitives), or None for a URL-mode request.
    schema_: dict[str, Any] | None = None
    url: str | None = None
    timeout_sec: float


class ElicitationResolved(BaseModel):
    type: Literal["mcp_elicitation_resolved"] = "mcp_elicitation_resolved"
    id: str
    action: Action
    timeout: bool = False


@dataclass(frozen=True)
class Answer:
    action: Action
    content: dict[str, Any] | None = None


class ElicitationDesk:
    """Open requests by id; `answer` settles one exactly once."""

    def __init__(self, timeout_sec: float = DEFAULT_TIMEOUT_SEC) -> None:
        self.timeout_sec = timeout_sec
        self._open: dict[str, tuple[ElicitationRequest, asyncio.Future[Answer], Emit]] = {}

    def pending(self, session_id: str) -> list[ElicitationRequest]:
        return [r for r, _f, _e in self._open.values() if r.session_id == session_id]

    async def ask(
        self,
        *,
        session_id: str,
        server: str,
        message: str,
        schema: dict[str, Any] | None,
        url: str | None,
        emit: Emit,
    ) -> Answer:
        request = ElicitationRequest(
            id=new_id(),
            session_id=session_id,
            server=server,
            message=message,
            schema_=schema,
            url=url,
            timeout_sec=self.timeout_sec,
        )
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._open[request.id] = (request, future, emit)  # stored before it is shown
        emit(request)
        try:
            async with asyncio.timeout(self.timeout_sec):
                return await asyncio.shield(future)
        except TimeoutError:
            if not future.done():
                future.set_result(Answer("cancel"))
                emit(ElicitationResolved(id=request.id, action="cancel", timeout=True))
            return future.result()
        finally:
            self._open.pop(request.id, None)

    def answer(self, request_id: str, session_id: str, answer: Answer) -> bool:
        """False when there is no such open request for this session (answered, timed out)."""
        entry = self._open.get(request_id)
        if entry is None or entry[0].session_id != session_id or entry[1].done():
            return False
        request, future, emit = entry
        future.set_result(answer)
        emit(ElicitationResolved(id=request.id, action=answer.action))
        return True
