"""The offline demo: a scripted model that shows streaming, a tool call and an approval."""

from __future__ import annotations

import html
import json
import re

from jarvis.agent_layer.openloop.judge import JUDGE_MARKER
from jarvis.agent_layer.thought.engine import THOUGHT_MARKER
from jarvis.common.i18n import Language, t
from jarvis.core.focus.demo import demo_focus
from jarvis.memory.service import PERSON_WORDS_HEADER
from jarvis.model_layer.messages import LLMContext, ToolResultMessage, UserMessage
from jarvis.model_layer.providers.faux import FauxProvider, FauxResponse, FauxToolCall

_COMMAND = re.compile(r"^\s*!(?P<cmd>.+)$|`(?P<quoted>[^`]+)`", re.DOTALL)
_LIST_WORDS = ("파일", "폴더", "목록", "file", "folder", "list", "ls")
# Asks for the rich Markdown sample (a table, a code block, a list) that needs no file.
_RICH_WORDS = ("마크다운", "markdown", "표 ", "table", "예시", "sample")

_HANGUL = re.compile("[\uac00-\ud7a3]")


def _language(ctx: LLMContext) -> Language:
    """The session's language, read from its system prompt (the HUD sets it per person)."""
    return "ko" if _HANGUL.search(ctx.system_prompt) else "en"


def demo_response(ctx: LLMContext) -> FauxResponse:
    """Answer from the last message: run a command, list files, or explain the demo."""
    if ctx.system_prompt.startswith(JUDGE_MARKER):
        return _demo_judgement(ctx)
    if ctx.system_prompt.startswith(THOUGHT_MARKER):
        return _demo_thought(ctx)
    lang = _language(ctx)
    last = ctx.messages[-1] if ctx.messages else None
    focus = demo_focus(_person_words(last.content)) if isinstance(last, UserMessage) else None
    if focus is not None:
        return FauxResponse(text=focus)
    if isinstance(last, ToolResultMessage):
        result = fenced(last.content[:1500])
        return FauxResponse(text=t("demo.tool_result", lang, tool=last.tool_name, result=result))
    text = _person_words(last.content) if isinstance(last, UserMessage) else ""
    match = _COMMAND.search(text)
    if match:
        # The security pipeline HTML-escapes input; the demo runs what the user typed.
        command = html.unescape(match.group("cmd") or match.group("quoted")).strip()
        return FauxResponse(
            text=t("demo.run_command", lang),
            tool_calls=[FauxToolCall(name="bash", arguments={"command": command})],
        )
    if any(word in text.lower() for word in _RICH_WORDS):
        return FauxResponse(text=t("demo.rich", lang))
    if any(word in text.lower() for word in _LIST_WORDS):
        return FauxResponse(
            text=t("demo.list_folder", lang),
            tool_calls=[FauxToolCall(name="list_dir", arguments={"path": "."})],
        )
    return FauxResponse(text=t("demo.hello", lang))


def fenced(output: str) -> str:
    """Tool output as a code block, never as Markdown: a `## heading` in a file stays a line.
    The fence is longer than any run of backticks inside."""
    longest = max((len(run) for run in re.findall(r"`+", output)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{output}\n{fence}"


_PROMISE_WORDS = ("해야", "까지", "보내기로", "must", "need to", "have to", "by ")
_INPUT_HEADERS = (f"{PERSON_WORDS_HEADER}\n", "[user input]\n")


def _person_words(text: str) -> str:
    """The person's own words: what follows recalled memory or the judge's context."""
    for header in _INPUT_HEADERS:
        text = text.rsplit(header, 1)[-1]
    return text


def _demo_judgement(ctx: LLMContext) -> FauxResponse:
    """A crude judge: a sentence with promise words is the loop, quoted as its own evidence
    (the deadline parser fills the due date from the same words)."""
    text = ctx.messages[-1].content if ctx.messages else ""
    said = html.unescape(_person_words(text)).strip()
    if any(word in said.lower() for word in _PROMISE_WORDS):
        return FauxResponse(text=f"{said} (근거: {said})")
    return FauxResponse(text="없음")


def demo_provider() -> FauxProvider:
    # The demo answers from the context alone; it keeps no log of what it was shown.
    return FauxProvider(script=demo_response, keep_calls=0)


def _demo_thought(ctx: LLMContext) -> FauxResponse:
    """The inner thought of the offline demo: a fixed frame (the demo has no language model)."""
    last = ctx.messages[-1] if ctx.messages else None
    text = last.content if isinstance(last, UserMessage) else ""
    lang: Language = "ko" if _HANGUL.search(text.rsplit("\n\n", 2)[-1]) else "en"
    frame = {
        "interpretation": t("demo.thought_interpretation", lang),
        "decision": "answer",
        "confidence": 0.6,
        "frame": t("demo.thought_frame", lang),
    }
    return FauxResponse(text=json.dumps(frame, ensure_ascii=False), chunk=64)
