"""The scripted model keeps a bounded log of what it was shown."""

from __future__ import annotations

from jarvis.app.demo import demo_provider, demo_response
from jarvis.model_layer.messages import LLMContext, UserMessage
from jarvis.model_layer.providers.faux import CALL_LOG_LIMIT, FauxProvider, FauxResponse


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


def test_the_demo_answers_the_persons_words_not_a_command_recalled_from_memory() -> None:
    recalled = "[장기 기억]\n- hi → try `!git status` to see an approval"

    def answer(words: str) -> FauxResponse:
        said = UserMessage(content=f"{recalled}\n\n[사용자 입력]\n{words}")
        return demo_response(LLMContext(system_prompt="SYSTEM", messages=[said]))

    assert not answer("hello again").tool_calls  # was: a bash call for the recalled command
    [call] = answer("!ls").tool_calls
    assert call.arguments == {"command": "ls"}
