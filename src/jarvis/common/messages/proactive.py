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
    "proactive.do_it": {
        "ko": "좋아요, 해 주세요: {text}",
        "en": "Yes, please do it: {text}",
    },
}
