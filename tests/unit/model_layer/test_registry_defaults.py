"""The built-in provider registry."""

from __future__ import annotations

from jarvis.model_layer import FauxProvider, ModelSettings
from jarvis.model_layer.providers.anthropic_provider import AnthropicProvider
from jarvis.model_layer.providers.openai_provider import OpenAIProvider
from jarvis.model_layer.providers.registry_defaults import default_provider_registry


async def test_builds_each_built_in_provider_in_the_given_language() -> None:
    registry = default_provider_registry("en")
    assert registry.names() == ["anthropic", "faux", "openai"]
    assert isinstance(registry.create(ModelSettings(provider="faux")), FauxProvider)
    openai = registry.create(ModelSettings(provider="openai"))
    anthropic = registry.create(ModelSettings(provider="anthropic"))
    assert isinstance(openai, OpenAIProvider) and openai.language == "en"
    assert isinstance(anthropic, AnthropicProvider) and anthropic.language == "en"
    await openai.aclose()
    await anthropic.aclose()
