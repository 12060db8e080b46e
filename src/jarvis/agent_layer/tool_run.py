"""One tool call of a turn, between its start and end events (a stopped or broken tool still
ends with one)."""

from __future__ import annotations

import asyncio

from jarvis.agent_layer.events import EventSink, ToolExecutionEnd, ToolExecutionStart
from jarvis.agent_layer.tools import LoopTools, ToolCallContext, ToolResult
from jarvis.common.i18n import Language, t
from jarvis.model_layer.messages import ToolCall

_PREVIEW_CHARS = 500


async def run_tool(
    call: ToolCall, tools: LoopTools, context: ToolCallContext, emit: EventSink, lang: Language
) -> ToolResult:
    emit(ToolExecutionStart(tool_call_id=call.id, tool_name=call.name, args=call.arguments))
    try:
        result = await tools.execute(call, context)
    except asyncio.CancelledError:
        # Stopped mid-run: the front ends still learn how the call ended.
        emit(
            ToolExecutionEnd(
                tool_call_id=call.id,
                tool_name=call.name,
                is_error=True,
                result_preview=t("loop.aborted", lang),
                decision={"outcome": "aborted", "reason": "aborted"},
            )
        )
        raise
    except Exception as exc:  # a broken tool must never crash the loop
        result = ToolResult(content=f"tool {call.name} failed: {exc}", is_error=True)
    emit(
        ToolExecutionEnd(
            tool_call_id=call.id,
            tool_name=call.name,
            is_error=result.is_error,
            result_preview=result.content[:_PREVIEW_CHARS],
            decision=result.details.get("decision"),
        )
    )
    return result
