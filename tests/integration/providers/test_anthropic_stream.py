"""The anthropic provider against Messages API wire-format streams from a local HTTP server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
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
from jarvis.model_layer.providers.anthropic_provider import AnthropicProvider
from tests.integration.providers.conftest import ReplayServer, Reply, json_reply, sse
from tests.support.ports import free_port

HELLO = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])

Make = Callable[..., AnthropicProvider]


@pytest.fixture
async def make(server: ReplayServer) -> AsyncIterator[Make]:
    made: list[AnthropicProvider] = []

    def build(base_url: str | None = None, **settings: Any) -> AnthropicProvider:
        settings.setdefault("max_retries", 0)
        settings.setdefault("api_key", SecretStr("sk-ant-test"))
        model = ModelSettings(
            provider="anthropic", base_url=base_url or server.url, model="claude", **settings
        )
        made.append(AnthropicProvider(model))
        return made[-1]

    yield build
    for provider in made:
        await provider.aclose()


def message_start(input_tokens: int = 21, **cache: int) -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": 1, **cache},
        },
    }


def block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def text_block(index: int) -> dict[str, Any]:
    return block_start(index, {"type": "text", "text": ""})


def tool_block(index: int, id: str) -> dict[str, Any]:
    return block_start(index, {"type": "tool_use", "id": id, "name": "bash", "input": {}})


def delta(index: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": body}


def text_delta(index: int, text: str) -> dict[str, Any]:
    return delta(index, {"type": "text_delta", "text": text})


def json_delta(index: int, partial: str) -> dict[str, Any]:
    return delta(index, {"type": "input_json_delta", "partial_json": partial})


def block_stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_end(reason: str, output_tokens: int) -> list[dict[str, Any]]:
    return [
        {
            "type": "message_delta",
            "delta": {"stop_reason": reason, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens},
        },
        {"type": "message_stop"},
    ]


def stream(*events: dict[str, Any], **reply: Any) -> Reply:
    """Anthropic names every SSE event and sends keep-alive pings."""
    return Reply(chunks=sse(events[0], {"type": "ping"}, *events[1:], named=True), **reply)


def text_reply(text: str, reason: str = "end_turn") -> Reply:
    return stream(
        message_start(), text_block(0), text_delta(0, text), block_stop(0), *message_end(reason, 2)
    )


async def collect(provider: AnthropicProvider, ctx: LLMContext = HELLO) -> list[StreamEvent]:
    return [event async for event in provider.stream("claude", ctx)]


def tool_calls(events: list[StreamEvent]) -> list[ToolCall]:
    return [e.tool_call for e in events if isinstance(e, ToolCallEvent)]


async def test_thinking_then_text_with_usage(server: ReplayServer, make: Make) -> None:
    server.add(
        stream(
            message_start(21, cache_read_input_tokens=100),
            block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
            delta(0, {"type": "thinking_delta", "thinking": "let me see"}),
            delta(0, {"type": "signature_delta", "signature": "sig"}),
            block_stop(0),
            text_block(1),
            text_delta(1, "Hel"),
            text_delta(1, "lo"),
            block_stop(1),
            *message_end("end_turn", 7),
        )
    )
    events = await collect(make())
    assert [type(e) for e in events] == [ThinkingDelta, TextDelta, TextDelta, Stop]
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason == "stop"
    assert (stop.usage.input_tokens, stop.usage.output_tokens) == (121, 7)


async def test_two_tool_uses_with_input_json_split_over_many_chunks(
    server: ReplayServer, make: Make
) -> None:
    server.add(
        stream(
            message_start(),
            text_block(0),
            text_delta(0, "Checking."),
            block_stop(0),
            tool_block(1, "toolu_1"),
            json_delta(1, ""),
            json_delta(1, '{"comm'),
            json_delta(1, 'and": "git st'),
            json_delta(1, 'atus"}'),
            block_stop(1),
            tool_block(2, "toolu_2"),
            json_delta(2, '{"command"'),
            json_delta(2, ': "pwd"}'),
            block_stop(2),
            *message_end("tool_use", 9),
        )
    )
    events = await collect(make())
    assert [type(e) for e in events] == [TextDelta, ToolCallEvent, ToolCallEvent, Stop]
    assert [(c.id, c.name, c.arguments) for c in tool_calls(events)] == [
        ("toolu_1", "bash", {"command": "git status"}),
        ("toolu_2", "bash", {"command": "pwd"}),
    ]
    assert isinstance(events[-1], Stop) and events[-1].reason == "tool_use"


async def test_invalid_input_json_becomes_an_arguments_error(
    server: ReplayServer, make: Make
) -> None:
    server.add(
        stream(
            message_start(),
            tool_block(0, "toolu_1"),
            json_delta(0, '{"command": '),
            block_stop(0),
            *message_end("tool_use", 3),
        )
    )
    events = await collect(make())
    (call,) = tool_calls(events)
    assert call.arguments == {}
    assert call.arguments_error is not None and "Expecting value" in call.arguments_error
    assert isinstance(events[-1], Stop)


async def test_max_tokens_stop_is_length(server: ReplayServer, make: Make) -> None:
    server.add(text_reply("cut", reason="max_tokens"))
    events = await collect(make())
    assert isinstance(events[-1], Stop) and events[-1].reason == "length"


async def test_stream_breaking_midway_keeps_the_text_then_errors(
    server: ReplayServer, make: Make
) -> None:
    server.add(
        stream(message_start(), text_block(0), text_delta(0, "part"), break_after=True),
        text_reply("must not be fetched"),
    )
    events = await collect(make(max_retries=3))
    assert [type(e) for e in events] == [TextDelta, ProviderError]
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "server"
    assert len(server.received) == 1


async def test_an_error_event_inside_the_stream_is_a_server_error(
    server: ReplayServer, make: Make
) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    server.add(stream(message_start(), text_block(0), text_delta(0, "part"), overloaded))
    events = await collect(make())
    assert [type(e) for e in events] == [TextDelta, ProviderError]
    error = events[-1]
    assert isinstance(error, ProviderError) and error.kind == "server"
    assert "Overloaded" in error.message


async def test_429_then_success_is_retried(server: ReplayServer, make: Make) -> None:
    rate_limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    server.add(json_reply(429, rate_limited, **{"retry-after-ms": "5"}), text_reply("after retry"))
    events = await collect(make(max_retries=2))
    assert [type(e) for e in events] == [TextDelta, Stop]
    assert len(server.received) == 2


async def test_bad_key_is_an_auth_error_naming_the_key_setting(
    server: ReplayServer, make: Make
) -> None:
    invalid = {"type": "error", "error": {"type": "authentication_error", "message": "invalid"}}
    server.add(json_reply(401, invalid))
    (event,) = await collect(make(api_key=SecretStr("wrong")))
    assert isinstance(event, ProviderError) and event.kind == "auth"
    assert event.message == t("provider.auth", base_url=server.url)
    assert "JARVIS_MODEL__API_KEY" in event.message
    headers = server.received[0].headers  # SDK versions differ: x-api-key or a bearer token
    assert "wrong" in (headers.get("x-api-key"), headers.get("authorization", "")[7:])


async def test_no_key_anywhere_is_an_auth_error(
    make: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    (event,) = await collect(make(api_key=None))
    assert isinstance(event, ProviderError) and event.kind == "auth"
    assert "JARVIS_MODEL__API_KEY" in event.message


async def test_unknown_model_names_the_model_setting(server: ReplayServer, make: Make) -> None:
    missing = {"type": "error", "error": {"type": "not_found_error", "message": "model: claude"}}
    server.add(json_reply(404, missing))
    (event,) = await collect(make())
    assert isinstance(event, ProviderError) and event.kind == "model_not_found"
    assert "JARVIS_MODEL__MODEL" in event.message and "claude" in event.message


async def test_connection_refused_names_the_base_url_setting_and_the_demo(make: Make) -> None:
    (event,) = await collect(make(f"http://127.0.0.1:{free_port()}"))
    assert isinstance(event, ProviderError) and event.kind == "unreachable"
    assert "JARVIS_MODEL__BASE_URL" in event.message and "jarvis chat --demo" in event.message


async def test_tool_results_go_back_in_one_user_message(server: ReplayServer, make: Make) -> None:
    server.add(text_reply("ok"))
    ctx = LLMContext(
        system_prompt="sys",
        tools=[ToolSpec(name="bash", description="run a command")],
        messages=[
            UserMessage(content="go"),
            AssistantMessage(
                content="Running both.",
                tool_calls=[
                    ToolCall(id="t1", name="bash", arguments={"command": "ls"}),
                    ToolCall(id="t2", name="bash", arguments={"command": "rm x"}),
                ],
            ),
            ToolResultMessage(tool_call_id="t1", tool_name="bash", content="a"),
            ToolResultMessage(tool_call_id="t2", tool_name="bash", content="denied", is_error=True),
            UserMessage(content="[resume] keep going"),
        ],
    )
    await collect(make(max_tokens=256), ctx)
    (request,) = server.received
    body = request.body
    assert request.path == "/v1/messages"
    assert body["model"] == "claude" and body["max_tokens"] == 256 and body["stream"] is True
    assert body["system"] == "sys"
    assert body["tools"] == [
        {
            "name": "bash",
            "description": "run a command",
            "input_schema": {"type": "object", "properties": {}},
        }
    ]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "go"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Running both."},
                {"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "ls"}},
                {"type": "tool_use", "id": "t2", "name": "bash", "input": {"command": "rm x"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "a", "is_error": False},
                {"type": "tool_result", "tool_use_id": "t2", "content": "denied", "is_error": True},
                {"type": "text", "text": "[resume] keep going"},
            ],
        },
    ]
