"""AGENDA lines said to the person in a session: the "which one?" question of a dismissal."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "agenda.ask_which": {
        "ko": "어느 약속을 취소할까요? {options}. 번호나 이름으로 답해 주세요('둘 다'도 "
        "됩니다). 답하기 전까지는 모두 열어 둡니다.",
        "en": "Which promise is cancelled? {options}. Answer with its number or name ('both' "
        "works too). They all stay open until you answer.",
    },
    # `jarvis openloop explain <id>`: the notes of issue 24's rules.
    "openloop.explain.reopened": {
        "ko": "다시 말해 다시 열림: {text}",
        "en": "said again, reopened: {text}",
    },
    "openloop.explain.asked": {
        "ko": "어느 약속인지 물음 (취소하는 말이 둘 이상을 가리킴): {text}",
        "en": "asked which (the dismissal pointed at more than one): {text}",
    },
}
