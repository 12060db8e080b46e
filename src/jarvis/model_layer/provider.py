"""The provider seam: one `stream()` per vendor, and a registry that builds them by name."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from jarvis.model_layer.config import ModelSettings, StreamOptions
from jarvis.model_layer.events import StreamEvent
from jarvis.model_layer.messages import LLMContext


class Provider:
    """Base class for model providers. Subclasses override `stream` only.

    `stream` must never raise: failures become a final `ProviderError` event.
    """

    name = "base"

    def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        raise NotImplementedError

    async def aclose(self) -> None:
        """Release network resources; the default has none."""


ProviderFactory = Callable[[ModelSettings], Provider]


class ProviderRegistry:
    """Maps provider names (`openai`, `anthropic`, `faux`, …) to factories."""

    def __init__(self) -> None:
        self._factories: dict[str, ProviderFactory] = {}

    def register(self, name: str, factory: ProviderFactory) -> None:
        self._factories[name] = factory

    def names(self) -> list[str]:
        return sorted(self._factories)

    def create(self, settings: ModelSettings) -> Provider:
        try:
            factory = self._factories[settings.provider]
        except KeyError:
            known = ", ".join(self.names())
            raise ValueError(f"unknown provider {settings.provider!r} (known: {known})") from None
        return factory(settings)
