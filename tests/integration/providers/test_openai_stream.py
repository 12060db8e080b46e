"""The openai provider against real wire-format streams from a local HTTP server."""

from __future__ import annotations

import socket
from typing import Any

from pydantic import SecretStr

from jarvis.common.i18n import t
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
from jarvis.model_layer.providers.openai_provider import OpenAIProvider
from tests.support.scripted_http import Scripted, ScriptedServer, json_body, sse

TOOLS = [ToolSpec(name="bash", description="run", parameters={"type": "object"})]


def chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        if delta is not None
        else [],
        "usage": usage,
    }


def tool_delta(
    index: int, *, id: str | None = None, name: str | None = None, args: str | None = None
) -> dict[str, Any]:
    function: dict[str, Any] = {}
    if name:
        function["name"] = name
    if args is not None:
        function["arguments"] = args
    part: dict[str, Any] = {"index": index, "function": function}
    if id:
        part.update(id=id, type="function")
    return {"tool_calls": [part]}


def provider(url: str, **overrides: Any) -> OpenAIProvider:
    settings = ModelSettings(
        base_url=f"{url}/v1", model="m", max_retries=overrides.pop("retries", 0), **overrides
    )
    return OpenAIProvider(settings)


async def collect(p: OpenAIProvider, ctx: LLMContext | None = None) -> list[StreamEvent]:
    ctx = ctx or LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])
    return [event async for event in p.stream("m", ctx)]


async def test_text_stream_with_usage(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(
                chunk({"role": "assistant", "content": ""}),
                chunk({"content": "Hel"}),
                chunk({"content": "lo"}),
                chunk({}, finish="stop"),
                chunk(
                    None, usage={"prompt_tokens": 11, "completion_tokens": 2, "total_tokens": 13}
                ),
                "[DONE]",
            )
        )
    )
    events = await collect(provider(server.url))
    assert "".join(e.delta for e in events if isinstance(e, TextDelta)) == "Hello"
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason == "stop"
    assert (stop.usage.input_tokens, stop.usage.output_tokens) == (11, 2)


async def test_split_arguments_of_two_parallel_tool_calls(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(
                chunk(tool_delta(0, id="call_a", name="bash", args="")),
                chunk(tool_delta(0, args='{"comm')),
                chunk(tool_delta(1, id="call_b", name="bash")),
                chunk(tool_delta(0, args='and": "ls')),
                chunk(tool_delta(1, args='{"command":')),
                chunk(tool_delta(0, args=' -la"}')),
                chunk(tool_delta(1, args=' "pwd"}')),
                chunk({}, finish="tool_calls"),
                "[DONE]",
            )
        )
    )
    events = await collect(
        provider(server.url), LLMContext(messages=[UserMessage(content="x")], tools=TOOLS)
    )
    calls = [e.tool_call for e in events if isinstance(e, ToolCallEvent)]
    assert [(c.id, c.arguments) for c in calls] == [
        ("call_a", {"command": "ls -la"}),
        ("call_b", {"command": "pwd"}),
    ]
    assert isinstance(events[-1], Stop) and events[-1].reason == "tool_use"


async def test_reasoning_deltas_become_thinking(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(
                chunk({"reasoning_content": "hmm"}),
                chunk({"content": "ok"}),
                chunk({}, finish="stop"),
                "[DONE]",
            )
        )
    )
    events = await collect(provider(server.url))
    assert [type(e) for e in events] == [ThinkingDelta, TextDelta, Stop]


async def test_invalid_json_arguments_become_an_error_not_a_crash(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(
                chunk(tool_delta(0, id="c", name="bash", args='{"command": ')),
                chunk({}, finish="tool_calls"),
                "[DONE]",
            )
        )
    )
    events = await collect(provider(server.url))
    (call,) = [e.tool_call for e in events if isinstance(e, ToolCallEvent)]
    assert call.arguments == {} and call.arguments_error and "char" in call.arguments_error


async def test_stream_breaking_midway_keeps_text_then_errors(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            chunks=sse(chunk({"content": "partial "}), chunk({"content": "text"})), break_after=True
        )
    )
    events = await collect(provider(server.url))
    assert "".join(e.delta for e in events if isinstance(e, TextDelta)) == "partial text"
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "server"
    assert sum(isinstance(e, Stop | ProviderError) for e in events) == 1


async def test_429_is_retried_then_succeeds(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            status=429,
            content_type="application/json",
            chunks=json_body({"error": {"message": "slow down"}}),
        ),
        Scripted(chunks=sse(chunk({"content": "after retry"}), chunk({}, finish="stop"), "[DONE]")),
    )
    events = await collect(provider(server.url, retries=2))
    assert "".join(e.delta for e in events if isinstance(e, TextDelta)) == "after retry"
    assert len(server.received) == 2


async def test_401_names_the_api_key_setting(server: ScriptedServer) -> None:
    server.add(
        Scripted(
            status=401,
            content_type="application/json",
            chunks=json_body({"error": {"message": "bad key"}}),
        )
    )
    (event,) = await collect(provider(server.url, api_key=SecretStr("wrong")))
    assert isinstance(event, ProviderError) and event.kind == "auth"
    assert "JARVIS_MODEL__API_KEY" in event.message and "--demo" in event.message
    assert server.received[0].headers["authorization"] == "Bearer wrong"


async def test_unreachable_endpoint_names_the_base_url_setting() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = OpenAIProvider(ModelSettings(base_url=f"http://127.0.0.1:{port}/v1", max_retries=0))
    (event,) = await collect(p)
    assert isinstance(event, ProviderError) and event.kind == "unreachable"
    assert event.message == t("provider.unreachable", base_url=f"http://127.0.0.1:{port}/v1")
    assert "JARVIS_MODEL__BASE_URL" in event.message and "jarvis chat --demo" in event.message


async def test_streaming_refused_with_tools_falls_back_and_remembers(
    server: ScriptedServer,
) -> None:
    completion = {
        "id": "x",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": "running",
                    "tool_calls": [
                        {
                            "id": "c9",
                            "type": "function",
                            "function": {"name": "bash", "arguments": '{"command": "ls"}'},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    }
    refusal = Scripted(
        status=500,
        content_type="application/json",
        chunks=json_body(
            {"error": {"message": "Cannot use tools with stream", "type": "server_error"}}
        ),
    )
    server.add(
        refusal,
        Scripted(content_type="application/json", chunks=json_body(completion)),
        Scripted(content_type="application/json", chunks=json_body(completion)),
    )
    p = provider(server.url)
    ctx = LLMContext(messages=[UserMessage(content="x")], tools=TOOLS)
    for _ in range(2):
        events = await collect(p, ctx)
        assert [type(e) for e in events] == [TextDelta, ToolCallEvent, Stop]
        call = events[1]
        assert isinstance(call, ToolCallEvent) and call.tool_call.arguments == {"command": "ls"}
        assert isinstance(events[-1], Stop) and events[-1].usage.output_tokens == 3
    assert [r.body.get("stream", False) for r in server.received] == [True, False, False]


async def test_request_body_has_the_chat_completions_shape(server: ScriptedServer) -> None:
    server.add(Scripted(chunks=sse(chunk({"content": "ok"}), chunk({}, finish="stop"), "[DONE]")))
    ctx = LLMContext(
        system_prompt="be brief",
        tools=TOOLS,
        messages=[
            UserMessage(content="list"),
            AssistantMessage(
                content="", tool_calls=[ToolCall(id="c1", name="bash", arguments={"command": "ls"})]
            ),
            ToolResultMessage(tool_call_id="c1", tool_name="bash", content="a b"),
        ],
    )
    await collect(provider(server.url), ctx)
    body = server.received[0].body
    assert server.received[0].path == "/v1/chat/completions"
    assert body["messages"][0] == {"role": "system", "content": "be brief"}
    assert body["messages"][2]["tool_calls"][0]["function"] == {
        "name": "bash",
        "arguments": '{"command": "ls"}',
    }
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "c1", "content": "a b"}
    assert body["tools"][0]["function"]["name"] == "bash"
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
