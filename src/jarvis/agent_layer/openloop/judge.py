"""The AGENDA judge: one LLM call beside the reply that writes new loops and loops to close.

Its own model setting (default: the main model). It sees the user's words, the current time in
the user's timezone and the numbered open loops; its output is parsed leniently (malformed lines
are ignored) and every decision it suggests passes the pure rules before anything is stored.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from jarvis.agent_layer.openloop.grounding import echoes_prompt
from jarvis.agent_layer.openloop.judge_parse import parse_judge_output
from jarvis.agent_layer.openloop.openloop_types import JudgeFrame, OpenLoop, format_numbered
from jarvis.common.i18n import Language
from jarvis.common.logging import get_logger
from jarvis.model_layer.events import ProviderError, TextDelta
from jarvis.model_layer.messages import LLMContext, UserMessage
from jarvis.model_layer.provider import Provider

_log = get_logger("jarvis.openloop")

JUDGE_MARKER = "[AGENDA judge]"
# Failures of a call that was cut short, worth asking once more.
_CUT = frozenset({"broken_stream", "server", "timeout", "unreachable"})
# A call that gave way to the person's turn (`preempted`) is asked again after each of their
# model calls, up to this many times (a person who keeps typing keeps the slot).
GIVE_WAY_ATTEMPTS = 8

_PROMPTS: dict[Language, str] = {
    "ko": (
        f"{JUDGE_MARKER} 당신은 사용자의 말에서 챙겨야 할 약속과 할 일(open loop)을 "
        "찾는 판단기입니다.\n"
        "규칙:\n"
        "- 사용자가 이번 입력에서 새로 말한, 나중에 해야 할 일만 적습니다. "
        "[열린 약속]에 이미 있는 것은 다시 적지 않습니다. 기억이나 예시를 옮겨 적지 않습니다.\n"
        "- 새 약속은 한 줄에 하나: `설명 @YYYY-MM-DD HH:MM (근거: 입력에서 그대로 옮긴 구절)`. "
        "기한을 모르면 @ 부분을 뺍니다.\n"
        "- 이번 입력으로 끝났거나 취소된 [열린 약속]은 번호로 닫습니다: `닫기: [1], [3]`.\n"
        "- 해당하는 것이 없으면 `없음` 한 줄만 씁니다. 다른 설명은 쓰지 않습니다."
    ),
    "en": (
        f"{JUDGE_MARKER} You find promises and to-dos (open loops) in what the user says.\n"
        "Rules:\n"
        "- Write only things the user newly said in this input that must be done later; never "
        "repeat a loop already in [open loops], never copy from memory or examples.\n"
        "- One new loop per line: `description @YYYY-MM-DD HH:MM (evidence: phrase copied from the "
        "input)`. Leave out the @ part when there is no due date.\n"
        "- Close [open loops] finished or cancelled by this input by number: `close: [1], [3]`.\n"
        "- If there is nothing, write the single line `none`. Write nothing else."
    ),
}
_USER: dict[Language, str] = {
    "ko": "[지금] {now}\n[열린 약속]\n{loops}\n[사용자 입력]\n{text}",
    "en": "[now] {now}\n[open loops]\n{loops}\n[user input]\n{text}",
}


class AgendaJudge:
    def __init__(self, provider: Provider, model: str, language: Language, tz: tzinfo) -> None:
        self.provider = provider
        self.model = model
        self.language = language
        self.tz = tz

    def context(self, user_input: str, now: datetime, shown: list[OpenLoop]) -> LLMContext:
        loops = format_numbered(shown, self.tz) or ("(없음)" if self.language == "ko" else "(none)")
        stamp = now.astimezone(self.tz).strftime("%Y-%m-%d %H:%M (%A)")
        text = _USER[self.language].format(now=stamp, loops=loops, text=user_input)
        return LLMContext(
            system_prompt=_PROMPTS[self.language], messages=[UserMessage(content=text)]
        )

    async def judge(
        self, user_input: str, now: datetime, shown: list[OpenLoop]
    ) -> JudgeFrame | None:
        """The parsed frame; a failed call gives an empty frame (code rules still apply). A call
        that was cut is asked once more; one that gave way to the person's turn (a one-slot
        server) is asked again after each of their calls, up to `GIVE_WAY_ATTEMPTS` times: None
        when it gave way every time, so the caller keeps the words to judge later."""
        context = self.context(user_input, now, shown)
        cut = gave_way = 0
        while True:
            parts: list[str] = []
            failure: ProviderError | None = None
            async for event in self.provider.stream(self.model, context):
                if isinstance(event, TextDelta):
                    parts.append(event.delta)
                elif isinstance(event, ProviderError):
                    failure = event
            if failure is None:
                text = "".join(parts)
                _log.debug("AGENDA judge answered: %r", text[:800])
                return drop_echoes(parse_judge_output(text, self.tz), self.language, user_input)
            if failure.kind == "preempted":
                gave_way += 1
                if gave_way < GIVE_WAY_ATTEMPTS:
                    continue  # the next call waits until the person's call is done
                _log.warning("AGENDA judge gave way %d times; the words wait", gave_way)
                return None
            _log.warning("AGENDA judge call failed: %s", failure.message)
            cut += 1
            if cut > 1 or failure.kind not in _CUT:
                return JudgeFrame()


def drop_echoes(frame: JudgeFrame, language: Language, user_input: str) -> JudgeFrame:
    """Candidates made of the judge's own instructions are not the person's promises."""
    prompt = _PROMPTS[language] + "\n" + _USER[language]
    kept = []
    for candidate in frame.new:
        text = f"{candidate.description} {candidate.evidence or ''}"
        if echoes_prompt(text, prompt, user_input):
            _log.info("AGENDA judge echoed its prompt, dropped: %r", candidate.description)
        else:
            kept.append(candidate)
    return frame.model_copy(update={"new": kept})
