"""The openai provider against a real llama.cpp server: streaming, limits, tools, overflow."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from jarvis.model_layer import (
    AssistantMessage,
    LLMContext,
    ModelSettings,
    ProviderError,
    Stop,
    StreamEvent,
    TextDelta,
    ToolCall,
    ToolCallEvent,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)
from jarvis.model_layer.providers.openai_provider import OpenAIProvider
from jarvis.model_layer.providers.server_info import context_window, count_tokens
from tests.integration.real_model.conftest import N_CTX_PER_SLOT, RealModel

BASH = ToolSpec(
    name="bash",
    description="Run a shell command",
    parameters={
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
)
# What makes this 135M model call a tool at temperature 0 (it will not on its own, and this
# llama.cpp build does not enforce `tool_choice: required` with a grammar).
CALL_GIT_STATUS = (
    "Reply with exactly this and nothing else:\n"
    '<tool_call>\n{"name": "bash", "arguments": {"command": "git status"}}\n</tool_call>'
)


@pytest.fixture
async def provider(real_model: RealModel) -> AsyncIterator[OpenAIProvider]:
    settings = ModelSettings(
        base_url=real_model.base_url,
        model=real_model.model,
        max_tokens=24,
        temperature=0.0,
        tool_choice="required",
        max_retries=0,
    )
    made = OpenAIProvider(settings, language="en")
    yield made
    await made.aclose()


async def collect(provider: OpenAIProvider, ctx: LLMContext) -> list[StreamEvent]:
    return [event async for event in provider.stream("smollm2", ctx)]


async def test_plain_chat_streams_in_pieces(provider: OpenAIProvider) -> None:
    ctx = LLMContext(system_prompt="You are JARVIS.", messages=[UserMessage(content="Hello!")])
    events = await collect(provider, ctx)
    deltas = [e for e in events if isinstance(e, TextDelta)]
    assert len(deltas) > 1 and "".join(d.delta for d in deltas).strip()
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason in ("stop", "length")
    assert stop.usage.input_tokens > 0 and stop.usage.output_tokens > 0


async def test_a_token_limit_cut_is_reported_as_length(provider: OpenAIProvider) -> None:
    ctx = LLMContext(messages=[UserMessage(content="Tell me a long story about a lighthouse.")])
    events = [e async for e in provider.stream("smollm2", ctx, None)]
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason == "length"
    assert stop.usage.output_tokens == 24


async def test_tools_reach_the_model_and_a_call_comes_back(provider: OpenAIProvider) -> None:
    ctx = LLMContext(
        system_prompt="You are JARVIS.",
        messages=[UserMessage(content=CALL_GIT_STATUS)],
        tools=[BASH],
    )
    events = await collect(provider, ctx)
    calls = [e.tool_call for e in events if isinstance(e, ToolCallEvent)]
    assert [(c.name, c.arguments) for c in calls] == [("bash", {"command": "git status"})]
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason == "tool_use"


async def test_a_tool_round_is_accepted(provider: OpenAIProvider) -> None:
    ctx = LLMContext(
        system_prompt="You are JARVIS.",
        tools=[BASH],
        messages=[
            UserMessage(content="What is in this folder?"),
            AssistantMessage(
                tool_calls=[ToolCall(id="c1", name="bash", arguments={"command": "ls"})]
            ),
            ToolResultMessage(tool_call_id="c1", tool_name="bash", content="notes.txt"),
        ],
    )
    events = await collect(provider, ctx)
    assert isinstance(events[-1], Stop), events[-1]


async def test_a_context_overflow_names_both_sizes(provider: OpenAIProvider) -> None:
    ctx = LLMContext(messages=[UserMessage(content="hello world " * N_CTX_PER_SLOT)])
    (event,) = await collect(provider, ctx)
    assert isinstance(event, ProviderError) and event.kind == "context_overflow"
    assert event.context_window == N_CTX_PER_SLOT
    assert event.prompt_tokens is not None and event.prompt_tokens > N_CTX_PER_SLOT
    assert f"of {N_CTX_PER_SLOT} tokens" in event.message


async def test_the_server_tells_its_context_size_and_counts_tokens(real_model: RealModel) -> None:
    assert await context_window(real_model.base_url, real_model.model) == N_CTX_PER_SLOT
    count = await count_tokens(real_model.base_url, real_model.model, "hello world " * 10)
    assert count is not None and 10 <= count <= 30
