"""LLMContext → Chat Completions request pieces, and recognising a tools+stream refusal."""

from __future__ import annotations

import httpx2
import openai
import pytest

from jarvis.model_layer import (
    AssistantMessage,
    LLMContext,
    ToolCall,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)
from jarvis.model_layer.providers.openai_provider import refuses_streaming_with_tools
from jarvis.model_layer.providers.openai_wire import (
    to_openai_messages,
    to_openai_tools,
)


def test_no_system_message_without_a_system_prompt() -> None:
    ctx = LLMContext(messages=[UserMessage(content="hi")])
    assert to_openai_messages(ctx) == [{"role": "user", "content": "hi"}]


def test_assistant_text_stays_a_string_and_tool_calls_carry_json_arguments() -> None:
    ctx = LLMContext(
        system_prompt="sys",
        messages=[
            AssistantMessage(content="plain answer", thinking="not sent back"),
            AssistantMessage(
                content="Let me look.",
                tool_calls=[ToolCall(id="c1", name="read", arguments={"path": "한글.txt"})],
            ),
            ToolResultMessage(tool_call_id="c1", tool_name="read", content="boom", is_error=True),
        ],
    )
    system, plain, with_call, result = to_openai_messages(ctx)
    assert system == {"role": "system", "content": "sys"}
    assert plain == {"role": "assistant", "content": "plain answer"}
    assert with_call["content"] == "Let me look."
    assert with_call["tool_calls"][0]["function"]["arguments"] == '{"path": "한글.txt"}'
    assert result == {"role": "tool", "tool_call_id": "c1", "content": "boom"}


def test_tools_become_function_specs() -> None:
    spec = ToolSpec(name="read", description="read a file")
    assert to_openai_tools([spec]) == [
        {
            "type": "function",
            "function": {
                "name": "read",
                "description": "read a file",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]


def status_error(status: int, message: str) -> openai.APIStatusError:
    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx2.Response(status, request=request)
    return openai.APIStatusError(message, response=response, body={"message": message})


@pytest.mark.parametrize(
    ("status", "message", "refused"),
    [
        (500, "Cannot use tools with stream", True),
        (400, "streaming is not supported with tool calls", True),
        (400, "tools: field required", False),
        (500, "stream ended unexpectedly", False),
        (429, "too many streams with tools", False),
    ],
)
def test_refusal_needs_the_status_and_both_words(status: int, message: str, refused: bool) -> None:
    assert refuses_streaming_with_tools(status_error(status, message)) is refused
