"""Telling a finished stream from one that merely stopped.

A Chat Completions stream is an answer only when a choice carries a `finish_reason`. Servers end
streams without one when they refuse after already sending 200 (llama-cpp-python puts its errors
there), run out of context, or are stopped; a proxy may close an empty stream. Such a stream is
broken, whatever text it carried:
- nothing was shown yet → ask once more without streaming: that answer carries the real error
  (as an HTTP status) or the tool calls the stream lost;
- something was shown → it stays on screen, and the stream ends with an error saying it is
  incomplete (asking again would print a second, different answer after the first).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from openai import AsyncStream
from openai.types.chat import ChatCompletionChunk

from jarvis.model_layer.events import StreamEvent
from jarvis.model_layer.messages import Usage
from jarvis.model_layer.providers.openai_wire import PendingCall, delta_events, usage_of


@dataclass
class StreamGuard:
    """What one streamed answer has shown so far, and how it ended."""

    chunks: int = 0
    shown: bool = False
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    calls: dict[int, PendingCall] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None

    @property
    def ask_again(self) -> bool:
        """Broken before anything reached the person: one non-streaming request may tell why."""
        return not self.finished and not self.shown and not self.calls

    async def read(self, chunks: AsyncStream[ChatCompletionChunk]) -> AsyncIterator[StreamEvent]:
        """Text and thinking as they arrive; tool calls stay in `calls` until the end."""
        async with chunks:  # releases the connection when the consumer stops early
            async for chunk in chunks:
                self.chunks += 1
                self.usage = usage_of(chunk.usage) or self.usage
                for choice in chunk.choices:
                    for event in delta_events(choice.delta, self.calls):
                        self.shown = True
                        yield event
                    self.finish_reason = choice.finish_reason or self.finish_reason
