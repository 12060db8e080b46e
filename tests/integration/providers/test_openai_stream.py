"""The openai provider against Chat Completions wire-format streams from a local HTTP server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import SecretStr

from jarvis.common.i18n import Language, t
from jarvis.model_layer import (
    AssistantMessage,
    LLMContext,
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
from tests.integration.providers.conftest import (
    Make,
    ReplayServer,
    Reply,
    json_reply,
    sse,
)
from tests.support.ports import free_port

TOOLS = [ToolSpec(name="bash", description="run a command", parameters={"type": "object"})]
HELLO = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])
WITH_TOOLS = LLMContext(messages=[UserMessage(content="x")], tools=TOOLS)


def chunk(delta: dict[str, Any] | None, finish: str | None = None, usage: Any = None) -> dict:
    """One `chat.completion.chunk`; `delta=None` is the usage-only chunk with no choices."""
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": choices,
        "usage": usage,
    }


def tool_part(index: int, *, id: str = "", name: str = "", args: str | None = None) -> dict:
    """A tool-call delta; only the first fragment of a call carries its id and name."""
    function: dict[str, Any] = {} if args is None else {"arguments": args}
    part: dict[str, Any] = {"index": index, "function": function}
    if id:
        part.update(id=id, type="function")
        function["name"] = name
    return {"tool_calls": [part]}


def completion(message: dict[str, Any], finish: str, usage: dict[str, int]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-2",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
        "usage": usage,
    }


def usage(prompt: int, completion_tokens: int) -> dict[str, int]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt + completion_tokens,
    }


def text_stream(*pieces: str) -> Reply:
    return Reply(chunks=sse(*(chunk({"content": p}) for p in pieces), chunk({}, "stop"), "[DONE]"))


async def collect(provider: OpenAIProvider, ctx: LLMContext = HELLO) -> list[StreamEvent]:
    return [event async for event in provider.stream("m", ctx)]


def text(events: list[StreamEvent]) -> str:
    return "".join(e.delta for e in events if isinstance(e, TextDelta))


def tool_calls(events: list[StreamEvent]) -> list[ToolCall]:
    return [e.tool_call for e in events if isinstance(e, ToolCallEvent)]


def assert_one_terminal(events: list[StreamEvent]) -> None:
    assert sum(isinstance(e, Stop | ProviderError) for e in events) == 1
    assert isinstance(events[-1], Stop | ProviderError)


async def test_text_stream_with_usage_in_the_final_chunk(server: ReplayServer, make: Make) -> None:
    server.add(
        Reply(
            chunks=sse(
                chunk({"role": "assistant", "content": ""}),
                chunk({"content": "Hel"}),
                chunk({"content": "lo"}),
                chunk({}, "stop"),
                chunk(None, usage=usage(11, 2)),
                "[DONE]",
            )
        )
    )
    events = await collect(make())
    assert [type(e) for e in events] == [TextDelta, TextDelta, Stop]
    assert text(events) == "Hello"
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason == "stop"
    assert (stop.usage.input_tokens, stop.usage.output_tokens) == (11, 2)


async def test_two_parallel_tool_calls_with_arguments_split_over_many_chunks(
    server: ReplayServer, make: Make
) -> None:
    server.add(
        Reply(
            chunks=sse(
                chunk({"role": "assistant", "content": None}),
                chunk(tool_part(0, id="call_a", name="bash", args="")),
                chunk(tool_part(0, args='{"comm')),
                chunk(tool_part(1, id="call_b", name="bash", args="")),
                chunk(tool_part(0, args='and": "ls')),
                chunk(tool_part(1, args='{"command":')),
                chunk(tool_part(0, args=' -la"}')),
                chunk(tool_part(1, args=' "pwd"}')),
                chunk({}, "tool_calls"),
                chunk(None, usage=usage(30, 12)),
                "[DONE]",
            )
        )
    )
    events = await collect(make(), WITH_TOOLS)
    assert [(c.id, c.name, c.arguments) for c in tool_calls(events)] == [
        ("call_a", "bash", {"command": "ls -la"}),
        ("call_b", "bash", {"command": "pwd"}),
    ]
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason == "tool_use"
    assert stop.usage.output_tokens == 12


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
async def test_reasoning_deltas_become_thinking(
    server: ReplayServer, make: Make, field: str
) -> None:
    server.add(
        Reply(
            chunks=sse(
                chunk({field: "hmm, "}),
                chunk({field: "easy"}),
                chunk({"content": "ok"}),
                chunk({}, "stop"),
                "[DONE]",
            )
        )
    )
    events = await collect(make())
    assert [type(e) for e in events] == [ThinkingDelta, ThinkingDelta, TextDelta, Stop]
    assert "".join(e.delta for e in events if isinstance(e, ThinkingDelta)) == "hmm, easy"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [('{"command": ', "Expecting value"), ('["ls"]', "expected an object, got list")],
)
async def test_bad_arguments_become_an_arguments_error(
    server: ReplayServer, make: Make, raw: str, expected: str
) -> None:
    server.add(
        Reply(
            chunks=sse(
                chunk(tool_part(0, id="c1", name="bash", args=raw[:3])),
                chunk(tool_part(0, args=raw[3:])),
                chunk({}, "tool_calls"),
                "[DONE]",
            )
        )
    )
    events = await collect(make(), WITH_TOOLS)
    (call,) = tool_calls(events)
    assert call.arguments == {}
    assert call.arguments_error is not None and expected in call.arguments_error
    assert isinstance(events[-1], Stop)


async def test_stream_breaking_midway_keeps_the_text_then_errors(
    server: ReplayServer, make: Make
) -> None:
    server.add(
        Reply(
            chunks=sse(
                chunk({"content": "partial "}),
                chunk({"content": "text"}),
                chunk(tool_part(0, id="c1", name="bash", args='{"comm')),
            ),
            break_after=True,
        ),
        text_stream("must not be fetched"),
    )
    events = await collect(make(max_retries=3))
    assert text(events) == "partial text"
    assert tool_calls(events) == []  # a half-received call is not run
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "server"
    assert_one_terminal(events)
    assert len(server.received) == 1  # output had started: no retry


async def test_429_then_success_is_retried(server: ReplayServer, make: Make) -> None:
    server.add(
        json_reply(429, {"error": {"message": "Rate limit reached", "type": "requests"}}),
        json_reply(503, {"error": {"message": "overloaded"}}, **{"retry-after-ms": "5"}),
        text_stream("after ", "retry"),
    )
    events = await collect(make(max_retries=2))
    assert text(events) == "after retry"
    assert isinstance(events[-1], Stop)
    assert len(server.received) == 3


async def test_retries_run_out_on_a_rate_limit(server: ReplayServer, make: Make) -> None:
    for _ in range(2):
        server.add(json_reply(429, {"error": {"message": "Rate limit reached"}}))
    (event,) = await collect(make(max_retries=1))
    assert isinstance(event, ProviderError) and event.kind == "rate_limited"
    assert "429" in event.message
    assert len(server.received) == 2


async def test_401_is_an_auth_error_naming_the_key_setting(
    server: ReplayServer, make: Make
) -> None:
    server.add(json_reply(401, {"error": {"message": "Incorrect API key provided"}}))
    provider = make(api_key=SecretStr("wrong"), max_retries=3)
    (event,) = await collect(provider)
    assert isinstance(event, ProviderError) and event.kind == "auth"
    assert event.message == t("provider.auth", base_url=f"{server.url}/v1")
    assert "JARVIS_MODEL__API_KEY" in event.message
    assert server.received[0].headers["authorization"] == "Bearer wrong"
    assert len(server.received) == 1  # a bad key is not retried


async def test_without_a_key_ollama_gets_a_placeholder(server: ReplayServer, make: Make) -> None:
    server.add(text_stream("ok"))
    await collect(make())
    assert server.received[0].headers["authorization"] == "Bearer ollama"


async def test_unknown_model_names_the_model_setting(server: ReplayServer, make: Make) -> None:
    server.add(json_reply(404, {"error": {"message": "model 'm' not found"}}))
    (event,) = await collect(make())
    assert isinstance(event, ProviderError) and event.kind == "model_not_found"
    assert event.message == t("provider.model_not_found", base_url=f"{server.url}/v1", model="m")


@pytest.mark.parametrize("language", ["ko", "en"])
async def test_connection_refused_names_the_base_url_setting_and_the_demo(
    make: Make, language: Language
) -> None:
    base_url = f"http://127.0.0.1:{free_port()}/v1"
    (event,) = await collect(make(base_url, language=language))
    assert isinstance(event, ProviderError) and event.kind == "unreachable"
    assert event.message == t("provider.unreachable", language, base_url=base_url)
    assert "JARVIS_MODEL__BASE_URL" in event.message and "jarvis chat --demo" in event.message


async def test_cancellation_propagates(server: ReplayServer, make: Make) -> None:
    server.add(Reply(chunks=text_stream("late").chunks, delay_sec=5.0))
    task = asyncio.create_task(collect(make()))
    while not server.received:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (500, "Cannot use tools with stream"),  # llama.cpp server
        (400, "Streaming is not supported when tools are given"),  # vLLM-style wording
    ],
)
async def test_streaming_refused_with_tools_falls_back_and_remembers(
    server: ReplayServer, make: Make, status: int, message: str
) -> None:
    answer = completion(
        {
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
        "tool_calls",
        usage(5, 3),
    )
    server.add(
        json_reply(status, {"error": {"message": message, "type": "server_error"}}),
        json_reply(200, answer),
        json_reply(200, answer),
    )
    provider = make(max_retries=3)  # the refusal must not be retried, even with retries on
    for _ in range(2):
        events = await collect(provider, WITH_TOOLS)
        assert [type(e) for e in events] == [TextDelta, ToolCallEvent, Stop]
        assert text(events) == "running"
        assert [(c.id, c.arguments) for c in tool_calls(events)] == [("c9", {"command": "ls"})]
        stop = events[-1]
        assert isinstance(stop, Stop) and stop.reason == "tool_use"
        assert (stop.usage.input_tokens, stop.usage.output_tokens) == (5, 3)
    assert [r.body.get("stream", False) for r in server.received] == [True, False, False]


async def test_fallback_is_per_model_and_only_with_tools(server: ReplayServer, make: Make) -> None:
    server.add(
        json_reply(500, {"error": {"message": "Cannot use tools with stream"}}),
        json_reply(200, completion({"role": "assistant", "content": "a"}, "stop", usage(1, 1))),
        text_stream("no tools, so streaming"),
    )
    provider = make()
    await collect(provider, WITH_TOOLS)
    events = await collect(provider, HELLO)
    assert text(events) == "no tools, so streaming"
    assert [r.body.get("stream", False) for r in server.received] == [True, False, True]


async def test_request_body_has_the_chat_completions_shape(
    server: ReplayServer, make: Make
) -> None:
    server.add(text_stream("ok"))
    ctx = LLMContext(
        system_prompt="be brief",
        tools=TOOLS,
        messages=[
            UserMessage(content="list"),
            AssistantMessage(
                content="", tool_calls=[ToolCall(id="c1", name="bash", arguments={"command": "ls"})]
            ),
            ToolResultMessage(tool_call_id="c1", tool_name="bash", content="a b"),
            UserMessage(content="thanks"),
        ],
    )
    await collect(make(temperature=0.0, max_tokens=64), ctx)
    (request,) = server.received
    body = request.body
    assert request.path == "/v1/chat/completions"
    assert body["model"] == "m"
    assert body["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "list"},
        {
            "role": "assistant",
            "content": "",  # llama-cpp-python answers 500 to null and to a missing key
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "bash", "arguments": '{"command": "ls"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "a b"},
        {"role": "user", "content": "thanks"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "bash",
                "description": "run a command",
                "parameters": {"type": "object"},
            },
        }
    ]
    assert body["tool_choice"] == "auto"  # llama-cpp-python drops the tools without it
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert (body["temperature"], body["max_tokens"]) == (0.0, 64)
