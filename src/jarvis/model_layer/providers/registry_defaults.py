"""The provider registry with the built-in providers."""

from __future__ import annotations

from jarvis.common.i18n import Language
from jarvis.model_layer.config import ModelSettings
from jarvis.model_layer.provider import Provider, ProviderRegistry
from jarvis.model_layer.providers.faux import FauxProvider


def default_provider_registry(language: Language = "ko") -> ProviderRegistry:
    registry = ProviderRegistry()
    registry.register("faux", FauxProvider.from_settings)
    registry.register("openai", lambda s: _openai(s, language))
    registry.register("anthropic", lambda s: _anthropic(s, language))
    return registry


def _openai(settings: ModelSettings, language: Language) -> Provider:
    # Imported here: the openai SDK costs a server without an OpenAI model (the scripted model,
    # every test's) about 0.5 s of CPU at start-up (benchmarks/server_start.py).
    from jarvis.model_layer.providers.openai_provider import OpenAIProvider

    return OpenAIProvider.from_settings(settings, language)


def _anthropic(settings: ModelSettings, language: Language) -> Provider:
    # Imported here: the anthropic SDK is an optional extra.
    from jarvis.model_layer.providers.anthropic_provider import AnthropicProvider

    return AnthropicProvider.from_settings(settings, language)
