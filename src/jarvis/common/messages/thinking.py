"""Lines of the thinking layer: the thought note the model sees, fillers, `jarvis me`."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "thought.note": {
        "ko": "[생각 메모 — 답하기 전에 정리한 것. 그대로 옮겨 쓰지 말 것]\n"
        "해석: {interpretation}\n결정: {decision}\n{frame}",
        "en": "[thought note — what was worked out before answering; do not quote it]\n"
        "interpretation: {interpretation}\ndecision: {decision}\n{frame}",
    },
    "thought.no_loops": {"ko": "(없음)", "en": "(none)"},
    "thought.no_recent": {"ko": "(첫 대화)", "en": "(first message)"},
    "demo.thought_interpretation": {
        "ko": "데모 모델의 생각: 요청을 그대로 받아 답한다.",
        "en": "the demo model's thought: take the request as written and answer it.",
    },
    "demo.thought_frame": {
        "ko": "- 요청을 한 줄로 확인\n- 필요하면 도구를 쓴다",
        "en": "- confirm the request in one line\n- use a tool if needed",
    },
    "thought.due": {"ko": "기한 {due}", "en": "due {due}"},
}
