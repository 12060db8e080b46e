"""`/orchestrate <pattern> <task>`: the orchestrate tool run straight from a slash command, inside
the session like a turn (same gate, approvals in the session's windows, Stop stops it)."""

from __future__ import annotations

from typing import Any

from jarvis.agent_layer.events import AgentEnd, AgentStart, ToolExecutionEnd, ToolExecutionStart
from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.common.clock import new_id
from jarvis.common.i18n import t
from jarvis.core.agents.patterns import PATTERNS, parse_pipeline
from jarvis.core.session import AgentSession
from jarvis.model_layer.messages import AssistantMessage, ToolCall

_PREVIEW = 500


def orchestrate_args(text: str) -> dict[str, Any] | None:
    """`supervisor,blackboard write a report` → {"pattern": …, "task": …}; None when malformed."""
    pattern, _, task = text.strip().partition(" ")
    try:
        parse_pipeline(pattern)
    except ValueError:
        return None
    return {"pattern": pattern, "task": task.strip()} if task.strip() else None


def orchestrate_usage(session: AgentSession) -> str:
    return t("agents.orchestrate_usage", session.setup.language, patterns=", ".join(PATTERNS))


async def run_tool_now(session: AgentSession, name: str, args: dict[str, Any]) -> ToolResult:
    """One tool call through the session's gated tools, reported like a turn's."""
    async with session.exclusive() as abort:
        setup = session.setup
        session.emit(AgentStart(agent_name=setup.agent_name))
        call = ToolCall(id=f"call_{new_id()[:12]}", name=name, arguments=args)
        ctx = ToolCallContext(
            session_id=session.id,
            agent_id=setup.agent_id,
            turn=session.info.turns,
            abort=abort,
            user_id=session.info.user_id,
            emit=session.emit,
            language=setup.language,
        )
        session.emit(ToolExecutionStart(tool_call_id=call.id, tool_name=name, args=args))
        result = await setup.tools().execute(call, ctx)
        session.emit(
            ToolExecutionEnd(
                tool_call_id=call.id,
                tool_name=name,
                is_error=result.is_error,
                result_preview=result.content[:_PREVIEW],
                decision=result.details.get("decision"),
            )
        )
        ended = "aborted" if abort.is_set() else "answer"
        final = AssistantMessage(content=result.content)
        session.emit(AgentEnd(final_message=final, ended_by=ended))
        return result
