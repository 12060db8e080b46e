"""LLMContext → Messages API pieces, and where the anthropic provider points by default."""

from __future__ import annotations

from jarvis.model_layer import (
    AssistantMessage,
    ModelSettings,
    ToolCall,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)
from jarvis.model_layer.providers.anthropic_provider import (
    AnthropicProvider,
    to_anthropic_messages,
    to_anthropic_tools,
)


def test_consecutive_user_turns_merge_into_one_message() -> None:
    messages = to_anthropic_messages([UserMessage(content="a"), UserMessage(content="b")])
    assert messages == [
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    ]


def test_tool_results_are_user_blocks_after_the_tool_use() -> None:
    messages = to_anthropic_messages(
        [
            UserMessage(content="go"),
            AssistantMessage(tool_calls=[ToolCall(id="t1", name="bash", arguments={"c": 1})]),
            ToolResultMessage(tool_call_id="t1", tool_name="bash", content="ok"),
        ]
    )
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[1]["content"] == [
        {"type": "tool_use", "id": "t1", "name": "bash", "input": {"c": 1}}
    ]
    assert messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": False}
    ]


def test_an_empty_assistant_turn_still_has_a_block() -> None:
    (message,) = to_anthropic_messages([AssistantMessage()])
    assert message == {"role": "assistant", "content": [{"type": "text", "text": "(no content)"}]}


def test_tools_carry_their_schema_as_input_schema() -> None:
    spec = ToolSpec(name="bash", description="run", parameters={"type": "object"})
    assert to_anthropic_tools([spec]) == [
        {"name": "bash", "description": "run", "input_schema": {"type": "object"}}
    ]


def test_the_ollama_default_url_means_the_sdk_default() -> None:
    provider = AnthropicProvider(ModelSettings(provider="anthropic"))
    assert provider.base_url.startswith("https://api.anthropic.com")
    custom = AnthropicProvider(ModelSettings(provider="anthropic", base_url="http://proxy:8080"))
    assert custom.base_url == "http://proxy:8080"
