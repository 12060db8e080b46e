"""Chat Completions wire format: requests from an `LLMContext`, events from chunks and answers.

What local servers accept decides the shapes here, not only OpenAI's documentation:
- an assistant message with tool calls carries `"content": ""`. OpenAI and vLLM take it;
  llama-cpp-python answers 500 to `null` (its Jinja template concatenates the content) and to a
  missing key alike.
- `tool_choice` goes with every request that has tools: llama-cpp-python drops the tools without
  it. The value is a per-model setting (`"off"` leaves the field out for servers that reject it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from openai.types import CompletionUsage
from openai.types.chat import ChatCompletion
from openai.types.chat.chat_completion_chunk import ChoiceDelta

from jarvis.model_layer.events import StreamEvent, TextDelta, ThinkingDelta, ToolCallEvent
from jarvis.model_layer.messages import (
    AssistantMessage,
    ImagePart,
    LLMContext,
    Message,
    ToolCall,
    ToolSpec,
    Usage,
)
from jarvis.model_layer.providers._common import parse_tool_call

# Finish reasons that mean "cut off by the token limit", as servers spell them.
_LENGTH_REASONS = frozenset({"length", "max_tokens", "model_length"})


def to_openai_messages(ctx: LLMContext, *, images: bool = False) -> list[dict[str, Any]]:
    """`images`: tool images follow their results as one user message of image parts (a tool
    message carries only text, and nothing may come between one round's tool messages)."""
    messages: list[dict[str, Any]] = []
    if ctx.system_prompt:
        messages.append({"role": "system", "content": ctx.system_prompt})
    pending: list[dict[str, Any]] = []
    for message in ctx.messages:
        if pending and message.role != "tool":
            messages.append({"role": "user", "content": pending})
            pending = []
        messages.append(_message(message))
        if images and message.role == "tool":
            pending.extend(_image_part(image) for image in message.images)
    if pending:
        messages.append({"role": "user", "content": pending})
    return messages


def _image_part(image: ImagePart) -> dict[str, Any]:
    url = f"data:{image.mime_type};base64,{image.data}"
    return {"type": "image_url", "image_url": {"url": url}}


def _message(message: Message) -> dict[str, Any]:
    if message.role == "user":
        return {"role": "user", "content": message.content}
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    return _assistant(message)


def _assistant(message: AssistantMessage) -> dict[str, Any]:
    if not message.tool_calls:
        return {"role": "assistant", "content": message.content}
    return {
        "role": "assistant",
        "content": message.content,  # "" when there is no text: see the module docstring
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": json.dumps(call.arguments, ensure_ascii=False),
                },
            }
            for call in message.tool_calls
        ],
    }


def to_openai_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": s.name, "description": s.description, "parameters": s.parameters},
        }
        for s in tools
    ]


@dataclass
class PendingCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


def delta_events(delta: ChoiceDelta, calls: dict[int, PendingCall]) -> list[StreamEvent]:
    """Text and thinking come out at once; tool-call fragments are collected by `index`."""
    events: list[StreamEvent] = []
    reasoning = _reasoning(delta)
    if reasoning:
        events.append(ThinkingDelta(delta=reasoning))
    if delta.content:
        events.append(TextDelta(delta=delta.content))
    for part in delta.tool_calls or []:
        pending = calls.setdefault(part.index, PendingCall())
        pending.id = part.id or pending.id
        if part.function is not None:
            pending.name = part.function.name or pending.name
            if part.function.arguments:
                pending.arguments.append(part.function.arguments)
    return events


def finished_calls(calls: dict[int, PendingCall]) -> list[ToolCallEvent]:
    return [
        ToolCallEvent(
            tool_call=parse_tool_call(
                pending.id or f"call_{index}", pending.name, "".join(pending.arguments)
            )
        )
        for index, pending in sorted(calls.items())
    ]


def completion_events(completion: ChatCompletion) -> tuple[list[StreamEvent], str | None]:
    """A non-streaming answer as the events a stream of it would have produced, without the
    final Stop, and the finish reason exactly as the server sent it (None when it sent none)."""
    if not completion.choices:
        raise ValueError("the server answered with no choices")
    choice = completion.choices[0]
    events: list[StreamEvent] = []
    reasoning = _reasoning(choice.message)
    if reasoning:
        events.append(ThinkingDelta(delta=reasoning))
    if choice.message.content:
        events.append(TextDelta(delta=choice.message.content))
    calls = [
        _completed_call(index, call) for index, call in enumerate(choice.message.tool_calls or [])
    ]
    events.extend(ToolCallEvent(tool_call=call) for call in calls)
    # Lenient servers send no finish_reason; the SDK does not validate it.
    reason: str | None = choice.finish_reason
    return events, reason


def _completed_call(index: int, call: Any) -> ToolCall:
    # `call` is a function or a custom tool call; only function calls carry JSON arguments.
    function = getattr(call, "function", None)
    name = getattr(function, "name", "") or ""
    return parse_tool_call(call.id or f"call_{index}", name, getattr(function, "arguments", ""))


def usage_of(usage: CompletionUsage | None) -> Usage | None:
    if usage is None:
        return None
    return Usage(input_tokens=usage.prompt_tokens or 0, output_tokens=usage.completion_tokens or 0)


def _reasoning(obj: Any) -> str:
    """Servers put thinking in `reasoning_content` (vLLM, DeepSeek) or `reasoning` (Ollama)."""
    extra = getattr(obj, "model_extra", None) or {}
    value = extra.get("reasoning_content") or extra.get("reasoning")
    return value if isinstance(value, str) else ""


def stop_reason(reason: str, has_calls: bool) -> str:
    """`tool_use` when calls came, `length` for any spelling of a token-limit cut, else as sent."""
    if has_calls or reason in ("tool_calls", "function_call"):
        return "tool_use"
    return "length" if reason in _LENGTH_REASONS else reason
