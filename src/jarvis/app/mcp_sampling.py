"""MCP sampling: a server asks Jarvis's own model to write something, behind an approval.

The person sees what the server wants to send (system prompt, messages, token limit) in the
usual approval window of the session whose tool call led to it; only "allow" sends it. With
no session (a request outside any call) or no approver, the request is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.clock import Clock, new_id
from jarvis.core.approvals.request import ApprovalRequest, preview_args
from jarvis.core.approvals.service import ApprovalService
from jarvis.core.mcp.hooks import Sampler
from jarvis.model_layer.config import ModelSettings, StreamOptions
from jarvis.model_layer.events import ProviderError, TextDelta
from jarvis.model_layer.messages import LLMContext, UserMessage
from jarvis.model_layer.provider import Provider

if TYPE_CHECKING:  # a request comes over a connection: the SDK is loaded by then
    import mcp_types

SAMPLING_TOOL = "mcp_sampling"


def approved_sampler(
    approvals: ApprovalService,
    provider: Callable[[], tuple[Provider, ModelSettings]],
    clock: Clock,
    timeout_sec: float,
) -> Sampler:
    async def sample(
        server: str, params: mcp_types.CreateMessageRequestParams, call: ToolCallContext | None
    ) -> mcp_types.CreateMessageResult | mcp_types.ErrorData:
        import mcp_types

        if call is None:
            return _refused("sampling is only answered during a tool call a person can approve")
        text = "\n\n".join(_text(m.content) for m in params.messages)
        request = _request(server, params, text, call, clock, timeout_sec)
        status = await approvals.ask(request, call.abort)
        if status not in ("allow", "always"):
            return _refused(f"the person did not allow it ({status})")
        model, settings = provider()
        ctx = LLMContext(
            system_prompt=params.system_prompt or "", messages=[UserMessage(content=text)]
        )
        options = StreamOptions(max_tokens=params.max_tokens, temperature=params.temperature)
        answer: list[str] = []
        async for event in model.stream(settings.model, ctx, options):
            if isinstance(event, TextDelta):
                answer.append(event.delta)
            elif isinstance(event, ProviderError):
                return _refused(f"the model failed: {event.message}")
        return mcp_types.CreateMessageResult(
            role="assistant",
            content=mcp_types.TextContent(text="".join(answer)),
            model=settings.model,
            stop_reason="endTurn",
        )

    return sample


def _request(
    server: str,
    params: mcp_types.CreateMessageRequestParams,
    text: str,
    call: ToolCallContext,
    clock: Clock,
    timeout_sec: float,
) -> ApprovalRequest:
    now = clock.now_ms()
    shown = {"system_prompt": params.system_prompt or "", "messages": text}
    shown["max_tokens"] = str(params.max_tokens)
    return ApprovalRequest(
        id=new_id(),
        session_id=call.session_id,
        agent_id=call.agent_id,
        user_id=call.user_id,
        turn=call.turn,
        tool_call_id=f"sampling-{new_id()[:8]}",
        tool=SAMPLING_TOOL,
        source=f"mcp:{server}",
        args=preview_args(shown),
        options=["allow", "deny"],
        created_ms=now,
        expires_ms=now + int(timeout_sec * 1000),
        timeout_sec=timeout_sec,
    )


def _text(block: object) -> str:
    import mcp_types

    if isinstance(block, mcp_types.TextContent):
        return block.text
    if isinstance(block, list):
        return "\n".join(_text(item) for item in block)
    kind = getattr(block, "type", "content")
    return f"[{kind}]"


def _refused(message: str) -> mcp_types.ErrorData:
    import mcp_types

    return mcp_types.ErrorData(code=mcp_types.INVALID_REQUEST, message=message)
