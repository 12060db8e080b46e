"""The demo answers in the session's language (read from its system prompt)."""

from __future__ import annotations

import pytest

from jarvis.app.demo import demo_response, fenced
from jarvis.common.i18n import Language, t
from jarvis.model_layer.messages import LLMContext, ToolResultMessage, UserMessage


def said(text: str, lang: Language) -> LLMContext:
    prompt = t("prompt.default_system", lang)
    return LLMContext(system_prompt=prompt, messages=[UserMessage(content=text)])


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_demo_line_follows_the_language(lang: Language) -> None:
    prompt = t("prompt.default_system", lang)
    assert demo_response(said("hello", lang)).text == t("demo.hello", lang)
    assert demo_response(said("!git status", lang)).text == t("demo.run_command", lang)
    assert demo_response(said("list the files", lang)).text == t("demo.list_folder", lang)
    result = ToolResultMessage(tool_call_id="c1", tool_name="bash", content="ok")
    after = demo_response(LLMContext(system_prompt=prompt, messages=[result])).text
    assert after == t("demo.tool_result", lang, tool="bash", result=fenced("ok"))
