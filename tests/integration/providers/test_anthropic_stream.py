"""The anthropic provider against real Messages SSE streams from a local HTTP server."""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr

from jarvis.model_layer import (
    AssistantMessage,
    LLMContext,
    ModelSettings,
    ProviderError,
    Stop,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCall,
    ToolCallEvent,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)
from jarvis.model_layer.providers.anthropic_provider import AnthropicProvider
from tests.support.scripted_http import Scripted, ScriptedServer, json_body, sse

START = {
    "type": "message_start",
    "message": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 21, "output_tokens": 1},
    },
}


def block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta(index: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": body}


def stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_end(reason: str, out: int) -> list[dict[str, Any]]:
    return [
        {
            "type": "message_delta",
            "delta": {"stop_reason": reason, "stop_sequence": None},
            "usage": {"output_tokens": out},
        },
        {"type": "message_stop"},
    ]


def provider(url: str, **kw: Any) -> AnthropicProvider:
    return AnthropicProvider(
        ModelSettings(
            provider="anthropic",
            base_url=url,
            model="claude",
            api_key=SecretStr("k"),
            max_retries=0,
            **kw,
        )
    )


async def collect(p: AnthropicProvider, ctx: LLMContext | None = None) -> list[StreamEvent]:
    ctx = ctx or LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])
    return [e async for e in p.stream("claude", ctx)]


async def test_text_and_thinking_with_usage(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(
                START,
                block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
                delta(0, {"type": "thinking_delta", "thinking": "let me see"}),
                stop(0),
                block_start(1, {"type": "text", "text": ""}),
                delta(1, {"type": "text_delta", "text": "Hel"}),
                delta(1, {"type": "text_delta", "text": "lo"}),
                stop(1),
                *message_end("end_turn", 7),
                named=True,
            )
        )
    )
    events = await collect(provider(server.url))
    assert [type(e) for e in events] == [ThinkingDelta, TextDelta, TextDelta, Stop]
    end = events[-1]
    assert isinstance(end, Stop) and (end.usage.input_tokens, end.usage.output_tokens) == (21, 7)


async def test_tool_use_with_split_json(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(
                START,
                block_start(0, {"type": "tool_use", "id": "tu_1", "name": "bash", "input": {}}),
                delta(0, {"type": "input_json_delta", "partial_json": '{"comm'}),
                delta(0, {"type": "input_json_delta", "partial_json": 'and": "git st'}),
                delta(0, {"type": "input_json_delta", "partial_json": 'atus"}'}),
                stop(0),
                block_start(1, {"type": "tool_use", "id": "tu_2", "name": "bash", "input": {}}),
                delta(1, {"type": "input_json_delta", "partial_json": '{"command": '}),
                stop(1),
                *message_end("tool_use", 9),
                named=True,
            )
        )
    )
    events = await collect(provider(server.url))
    calls = [e.tool_call for e in events if isinstance(e, ToolCallEvent)]
    assert calls[0].arguments == {"command": "git status"} and calls[0].id == "tu_1"
    assert calls[1].arguments_error is not None
    assert isinstance(events[-1], Stop) and events[-1].reason == "tool_use"


async def test_stream_breaking_midway(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(
                START,
                block_start(0, {"type": "text", "text": ""}),
                delta(0, {"type": "text_delta", "text": "part"}),
                named=True,
            ),
            break_after=True,
        )
    )
    events = await collect(provider(server.url))
    assert isinstance(events[0], TextDelta)
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "server"


async def test_bad_key_is_an_auth_error(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            status=401,
            content_type="application/json",
            chunks=json_body(
                {
                    "type": "error",
                    "error": {"type": "authentication_error", "message": "invalid x-api-key"},
                }
            ),
        )
    )
    (event,) = await collect(provider(server.url))
    assert isinstance(event, ProviderError) and event.kind == "auth"
    assert "JARVIS_MODEL__API_KEY" in event.message


async def test_tool_results_merge_into_one_user_message(server: ScriptedServer) -> None:
    server.add(Scripted(chunks=sse(START, *message_end("end_turn", 1), named=True)))
    ctx = LLMContext(
        system_prompt="sys",
        tools=[ToolSpec(name="bash", description="d")],
        messages=[
            UserMessage(content="go"),
            AssistantMessage(
                tool_calls=[ToolCall(id="t1", name="bash", arguments={"command": "ls"})]
            ),
            ToolResultMessage(tool_call_id="t1", tool_name="bash", content="a", is_error=False),
            UserMessage(content="[resume] keep going"),
        ],
    )
    await collect(provider(server.url), ctx)
    body = server.received[0].body
    assert server.received[0].path == "/v1/messages"
    assert body["system"] == "sys" and body["tools"][0]["input_schema"]["type"] == "object"
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert [b["type"] for b in body["messages"][2]["content"]] == ["tool_result", "text"]
    assert body["messages"][1]["content"][0] == {
        "type": "tool_use",
        "id": "t1",
        "name": "bash",
        "input": {"command": "ls"},
    }
