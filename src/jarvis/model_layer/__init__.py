"""Model layer: messages, stream events, the provider seam and the built-in providers."""

from jarvis.model_layer.config import ModelSettings, StreamOptions
from jarvis.model_layer.events import (
    ProviderError,
    Stop,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallEvent,
)
from jarvis.model_layer.messages import (
    AssistantMessage,
    LLMContext,
    Message,
    ToolCall,
    ToolResultMessage,
    ToolSpec,
    Usage,
    UserMessage,
)
from jarvis.model_layer.provider import Provider, ProviderRegistry
from jarvis.model_layer.providers.faux import FauxProvider, FauxResponse, FauxToolCall

__all__ = [
    "AssistantMessage",
    "FauxProvider",
    "FauxResponse",
    "FauxToolCall",
    "LLMContext",
    "Message",
    "ModelSettings",
    "Provider",
    "ProviderError",
    "ProviderRegistry",
    "Stop",
    "StreamEvent",
    "StreamOptions",
    "TextDelta",
    "ThinkingDelta",
    "ToolCall",
    "ToolCallEvent",
    "ToolResultMessage",
    "ToolSpec",
    "Usage",
    "UserMessage",
]
