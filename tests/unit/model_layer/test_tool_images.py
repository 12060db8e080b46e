"""Tool images reach vision models as image parts; text-only servers get only the note."""

from __future__ import annotations

from jarvis.model_layer.config import ModelSettings
from jarvis.model_layer.messages import (
    AssistantMessage,
    ImagePart,
    LLMContext,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from jarvis.model_layer.providers.anthropic_provider import to_anthropic_messages
from jarvis.model_layer.providers.openai_wire import to_openai_messages

IMAGE = ImagePart(mime_type="image/png", data="iVBORw0KGgo=")
CALLS = [ToolCall(id="c1", name="shot"), ToolCall(id="c2", name="echo")]
MESSAGES = [
    UserMessage(content="look"),
    AssistantMessage(tool_calls=CALLS),
    ToolResultMessage(tool_call_id="c1", tool_name="shot", content="[image 1]", images=[IMAGE]),
    ToolResultMessage(tool_call_id="c2", tool_name="echo", content="hi"),
    AssistantMessage(content="a cat"),
]


def test_openai_puts_images_after_the_rounds_tool_messages() -> None:
    out = to_openai_messages(LLMContext(messages=MESSAGES), images=True)

    assert [m["role"] for m in out] == ["user", "assistant", "tool", "tool", "user", "assistant"]
    assert out[2]["content"] == "[image 1]"
    assert out[4]["content"] == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    ]


def test_openai_without_images_sends_only_the_note() -> None:
    out = to_openai_messages(LLMContext(messages=MESSAGES))

    assert [m["role"] for m in out] == ["user", "assistant", "tool", "tool", "assistant"]


def test_anthropic_tool_result_carries_an_image_block() -> None:
    out = to_anthropic_messages(MESSAGES)

    result = out[2]["content"][0]
    assert result["content"] == [
        {"type": "text", "text": "[image 1]"},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
        },
    ]
    assert out[2]["content"][1]["content"] == "hi"


def test_who_takes_images_by_default() -> None:
    assert ModelSettings(provider="anthropic").sends_images()
    assert ModelSettings(base_url="https://api.openai.com/v1").sends_images()
    assert not ModelSettings().sends_images()  # a local server: maybe a text-only model
    assert ModelSettings(accepts_images=True).sends_images()
