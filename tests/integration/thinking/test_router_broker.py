"""The router's hard rule "an answer to a waiting approval never thinks", fed by the real approval
broker of the session (not a flag in a test)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from jarvis.app.session_builder import SessionBuilder
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.ui.web.broker import ApprovalBroker
from tests.integration.thinking.test_wired import make_app, scripted

PLAN = "다음 주 배포 계획을 단계별로 세워줘. 왜 그 순서인지도 설명해줘"


async def test_a_prompt_while_an_approval_waits_is_routed_as_its_answer(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    scripted(app, lambda ctx: "네.")
    session = await SessionBuilder(app).create()
    events: list[BaseModel] = []
    session.subscribe(events.append)
    broker = ApprovalBroker(session.id, shared=True)
    app.channels.attach(session.id, broker)

    def reasons() -> list[str]:
        return [
            getattr(e, "reason", "") for e in events if getattr(e, "type", "") == "thought_route"
        ]

    await session.prompt(PLAN)
    fields = {"agent_id": "main", "user_id": "local", "tool": "bash", "source": "builtin"}
    ids = {"id": "r1", "session_id": session.id, "turn": 1, "tool_call_id": "c1"}
    times = {"created_ms": 0, "expires_ms": 0}
    request = ApprovalRequest(args=[], options=["allow", "deny"], **fields, **ids, **times)
    assert await broker.deliver(request)
    await session.prompt(PLAN)
    await broker.resolved(request, "deny")
    await session.prompt(PLAN)
    assert reasons()[1] == "approval_answer"
    assert reasons()[0] == reasons()[2] != "approval_answer"
    other = await SessionBuilder(app).create()  # another session's approval is not this one's
    assert await broker.deliver(request.model_copy(update={"id": "r2"}))
    other_events: list[BaseModel] = []
    other.subscribe(other_events.append)
    await other.prompt(PLAN)
    assert [getattr(e, "reason", "") for e in other_events][:1] != ["approval_answer"]
