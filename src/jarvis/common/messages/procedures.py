"""Lines for `/procedures` and `jarvis procedures`."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "procedures.usage": {
        "ko": "사용법: /procedures [list|show <이름>|approve <이름>|reject <이름>|learn]",
        "en": "usage: /procedures [list|show <name>|approve <name>|reject <name>|learn]",
    },
    "procedures.none": {"ko": "배운 절차가 없습니다.", "en": "No learned procedures."},
    "procedures.has_revision": {"ko": "개정 초안 있음", "en": "revision waiting"},
    "procedures.displaced": {
        "ko": "밀려난 개정 {count}개",
        "en": "{count} displaced revisions",
    },
    "procedures.status.draft": {"ko": "초안", "en": "draft"},
    "procedures.status.approved": {"ko": "승인", "en": "approved"},
    "procedures.status.rejected": {"ko": "거절", "en": "rejected"},
    "procedures.not_found": {
        "ko": "그런 절차가 없습니다: {name}",
        "en": "no such procedure: {name}",
    },
    "procedures.approved": {
        "ko": "승인했습니다: {name} (다음 턴부터 도구 {tool} 와 /{name} 로 씁니다)",
        "en": "approved: {name} (usable as {tool} and /{name} from the next turn)",
    },
    "procedures.revision_approved": {
        "ko": "개정을 승인했습니다: {name}",
        "en": "revision approved: {name}",
    },
    "procedures.pattern_saved": {
        "ko": "작업 패턴으로 저장했습니다: {name}",
        "en": "saved as a task pattern: {name}",
    },
    "procedures.rejected": {"ko": "거절했습니다: {name}", "en": "rejected: {name}"},
    "procedures.revision_rejected": {
        "ko": "개정만 버렸습니다. 승인된 본문은 그대로입니다: {name}",
        "en": "revision dropped; the approved body stays: {name}",
    },
    "procedures.current": {"ko": "지금 본문:", "en": "current body:"},
    "procedures.revision": {
        "ko": "개정 초안 (세대 {generation}):",
        "en": "revision (gen {generation}):",
    },
    "procedures.learned": {
        "ko": "이 세션에서 절차 초안을 배웠습니다: {name} (/procedures approve {name})",
        "en": "learned a draft from this session: {name} (/procedures approve {name})",
    },
    "procedures.already": {
        "ko": "이 구간은 이미 배웠습니다: {name}",
        "en": "this segment was learned already: {name}",
    },
    "procedures.unlearnable": {
        "ko": "배울 구간이 없습니다 "
        "(도구를 3번 이상 성공해야 하고, 회복하지 못한 오류가 없어야 합니다).",
        "en": "nothing to learn (3+ successful tool uses and no unrecovered error needed).",
    },
    "procedures.failed": {
        "ko": "모델이 절차를 만들지 못했습니다. 잠시 뒤 다시 해 보세요.",
        "en": "the model gave no usable procedure; try again later.",
    },
}
