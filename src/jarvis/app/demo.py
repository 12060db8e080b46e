"""The offline demo: a scripted model that shows streaming, a tool call and an approval."""

from __future__ import annotations

import html
import re

from jarvis.model_layer.messages import LLMContext, ToolResultMessage, UserMessage
from jarvis.model_layer.providers.faux import FauxProvider, FauxResponse, FauxToolCall

_COMMAND = re.compile(r"^\s*!(?P<cmd>.+)$|`(?P<quoted>[^`]+)`", re.DOTALL)
_LIST_WORDS = ("파일", "폴더", "목록", "file", "folder", "list", "ls")

_HELLO = (
    "(데모) 안녕하세요, JARVIS 입니다. 지금은 실제 모델 없이 각본으로 답하는 데모 모드예요.\n"
    "- `!git status` 처럼 느낌표로 시작하면 bash 명령을 요청하고, 승인 창이 뜹니다.\n"
    "- '파일 목록 보여줘' 라고 하면 list_dir 도구를 부릅니다."
)


def demo_response(ctx: LLMContext) -> FauxResponse:
    """Answer from the last message: run a command, list files, or explain the demo."""
    last = ctx.messages[-1] if ctx.messages else None
    if isinstance(last, ToolResultMessage):
        return FauxResponse(text=f"(데모) {last.tool_name} 결과입니다:\n\n{last.content[:1500]}")
    text = last.content if isinstance(last, UserMessage) else ""
    match = _COMMAND.search(text)
    if match:
        # The security pipeline HTML-escapes input; the demo runs what the user typed.
        command = html.unescape(match.group("cmd") or match.group("quoted")).strip()
        return FauxResponse(
            text="(데모) 이 명령을 실행해 볼게요.",
            tool_calls=[FauxToolCall(name="bash", arguments={"command": command})],
        )
    if any(word in text.lower() for word in _LIST_WORDS):
        return FauxResponse(
            text="(데모) 작업 폴더를 살펴볼게요.",
            tool_calls=[FauxToolCall(name="list_dir", arguments={"path": "."})],
        )
    return FauxResponse(text=_HELLO)


def demo_provider() -> FauxProvider:
    return FauxProvider(script=demo_response)
