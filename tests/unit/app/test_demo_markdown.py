"""The demo's tool results are fenced (never drawn as Markdown) and it has a rich sample."""

from __future__ import annotations

import pytest

from jarvis.app.demo import demo_response, fenced
from jarvis.common.i18n import Language, t
from jarvis.model_layer.messages import LLMContext, UserMessage


@pytest.mark.parametrize(
    ("output", "fence"),
    [("## heading", "```"), ("a ``` b", "````"), ("`````", "``````"), ("", "```")],
)
def test_tool_output_is_fenced_longer_than_any_backtick_run(output: str, fence: str) -> None:
    assert fenced(output) == f"{fence}text\n{output}\n{fence}"


@pytest.mark.parametrize(
    ("lang", "asked"), [("ko", "마크다운 예시 보여줘"), ("en", "show a Markdown sample")]
)
def test_the_rich_sample_has_a_table_code_and_a_list(lang: Language, asked: str) -> None:
    prompt = t("prompt.default_system", lang)
    answer = demo_response(LLMContext(system_prompt=prompt, messages=[UserMessage(content=asked)]))
    assert answer.text == t("demo.rich", lang) and not answer.tool_calls
    assert "|---|" in answer.text and "```python" in answer.text and "\n1. " in answer.text
    assert asked in t("demo.hello", lang).replace("'", "")
