"""Lines for `/remember`, `/forget`, `/wrong`, `jarvis memory` and the memory tools."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "memory.usage": {
        "ko": "사용법: /remember <기억할 사실> | /remember reembed, /forget <id>, /note <메모>",
        "en": "usage: /remember <fact> | /remember reembed, /forget <id>, /note <text>",
    },
    "memory.noted": {
        "ko": "이 세션의 작업 공유 메모리에 적었습니다: {text}",
        "en": "added to this session's shared work memory: {text}",
    },
    "memory.remembered": {
        "ko": "기억했습니다 ({id}): {text}",
        "en": "remembered ({id}): {text}",
    },
    "memory.forgotten": {"ko": "잊었습니다: {text}", "en": "forgot: {text}"},
    "memory.not_found": {"ko": "그런 기억이 없습니다: {id}", "en": "no such memory: {id}"},
    "memory.ambiguous": {
        "ko": "여러 기억이 '{id}' 로 시작합니다. 더 길게 써 주세요.",
        "en": "several memories start with '{id}'; give more of the id.",
    },
    "memory.none": {"ko": "기억하는 것이 없습니다.", "en": "Nothing remembered."},
    # Why an item came back into a conversation (the recall event, `jarvis memory show`).
    "memory.recall.words": {"ko": "겹치는 말: {words}", "en": "shares: {words}"},
    "memory.recall.similar": {
        "ko": "뜻이 가까움 (코사인 {similarity})",
        "en": "close in meaning (cosine {similarity})",
    },
    "memory.recall.episode": {
        "ko": "성공한 턴 {turn} 에서 한 말 · {why}",
        "en": "what you said in successful turn {turn} · {why}",
    },
    "memory.recall.never": {
        "ko": "대화에 회상되지 않습니다 (결과: {outcome}; 성공한 턴만 회상됩니다)",
        "en": "never recalled into a conversation (outcome: {outcome}; only successful turns are)",
    },
    "memory.recall.when": {
        "ko": "회상: 이 턴에서 한 말과 겹치는 말이 있을 때 (도구 없이 끝난 턴은 그 말만)",
        "en": "recalled when your words share a word with what you said in this turn (a turn "
        "without tools comes back as your words only)",
    },
    "memory.reembedded": {
        "ko": "기억 {count}개를 다시 임베딩했습니다.",
        "en": "re-embedded {count} memories.",
    },
    "memory.no_embedder": {
        "ko": "임베딩이 꺼져 있습니다 (JARVIS_MEMORY__EMBEDDING__PROVIDER).",
        "en": "no embedder configured (JARVIS_MEMORY__EMBEDDING__PROVIDER).",
    },
    "memory.wrong_marked": {
        "ko": "앞 턴({turn})을 실패로 적었습니다. 유휴 시간에 반성합니다.",
        "en": "marked turn {turn} as failed; it will be reflected on when idle.",
    },
    "memory.wrong_none": {
        "ko": "실패로 적을 앞 턴이 없습니다.",
        "en": "there is no earlier turn to mark as failed.",
    },
    "memory.pattern_saved": {
        "ko": "작업 패턴을 기억했습니다: {text}",
        "en": "task pattern saved: {text}",
    },
    "memory.pattern_empty": {
        "ko": "pattern 이 비어 있습니다.",
        "en": "pattern is empty.",
    },
    "memory.episodes_none": {
        "ko": "조건에 맞는 지난 턴이 없습니다.",
        "en": "no past turns match.",
    },
}
