"""Lines of speaking first: why the reflection was asked, the "do it" prompt, the HUD's card."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "proactive.trigger.due": {
        "ko": "약속한 일의 기한이 다가온다: {items}",
        "en": "a promised item is coming due: {items}",
    },
    "proactive.trigger.idle": {
        "ko": "대화가 끝나고 {minutes}분째 조용하다",
        "en": "the conversation has been quiet for {minutes} minutes",
    },
    "proactive.trigger.goal_done": {
        "ko": "맡긴 목표가 끝났다: {items}",
        "en": "a goal it was given has finished: {items}",
    },
    "proactive.trigger.focus_step": {
        "ko": "Focus 작업의 단계가 끝났다: {items}",
        "en": "a step of a Focus task has finished: {items}",
    },
    "proactive.trigger.source_item": {
        "ko": "지켜보는 출처에 새 항목이 올라왔다: {items}",
        "en": "a watched source has a new item: {items}",
    },
    "proactive.unspoken_header": {
        "ko": "[아직 말하지 않은 생각 — 이 대화와 관련 있으면 자연스럽게 꺼내도 됨, 아니면 무시]",
        "en": "[thoughts not said yet — bring one up naturally if it fits this answer, "
        "else ignore]",
    },
    "proactive.feedback.none": {
        "ko": "아직 먼저 건넨 말이 없어요.",
        "en": "Jarvis has not said anything first yet.",
    },
    "proactive.feedback.thumbs_up": {"ko": "👍 기록했어요: {text}", "en": "👍 noted: {text}"},
    "proactive.feedback.thumbs_down": {
        "ko": "👎 기록했어요. 이런 말은 줄일게요: {text}",
        "en": "👎 noted; fewer like this: {text}",
    },
    "proactive.feedback.already": {
        "ko": "이미 답한 메시지예요: {text}",
        "en": "That message was answered already: {text}",
    },
    "proactive.terminal_hint": {"ko": "(/good · /bad · /doit)", "en": "(/good · /bad · /doit)"},
    "proactive.do_it": {
        "ko": "좋아요, 해 주세요: {text}",
        "en": "Yes, please do it: {text}",
    },
}
