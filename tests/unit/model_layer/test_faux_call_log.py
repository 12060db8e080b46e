"""The scripted model keeps a bounded log of what it was shown."""

from __future__ import annotations

from jarvis.app.demo import demo_provider
from jarvis.model_layer.messages import LLMContext, UserMessage
from jarvis.model_layer.providers.faux import CALL_LOG_LIMIT, FauxProvider


async def ask(provider: FauxProvider, text: str) -> None:
    ctx = LLMContext(system_prompt="s" * 2000, messages=[UserMessage(content=text)])
    async for _ in provider.stream("faux", ctx):
        pass


async def test_the_call_log_keeps_the_last_calls_and_counts_all() -> None:
    provider = FauxProvider(script=lambda ctx: "ok")
    for n in range(1000):
        await ask(provider, f"q{n}")
    assert provider.call_count == 1000
    assert CALL_LOG_LIMIT <= len(provider.calls) < 2 * CALL_LOG_LIMIT
    assert provider.calls[-1].messages[-1].content == "q999"  # type: ignore[union-attr]


async def test_the_demo_model_keeps_no_contexts() -> None:
    provider = demo_provider()
    for n in range(100):
        await ask(provider, f"hello {n}")
    assert provider.calls == [] and provider.call_count == 100
