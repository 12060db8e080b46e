"""`/openloop`, `/openloop done <id>`, `/openloop dismiss <id>` (an 8-char id prefix is enough)."""

from __future__ import annotations

from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.common.i18n import Language, register_messages, t

register_messages(
    {
        "openloop.none": {"ko": "챙길 약속이 없습니다.", "en": "Nothing on the AGENDA."},
        "openloop.usage": {
            "ko": "사용법: /openloop [done|dismiss <id>]",
            "en": "usage: /openloop [done|dismiss <id>]",
        },
        "openloop.not_found": {"ko": "그런 약속이 없습니다: {id}", "en": "no such loop: {id}"},
        "openloop.ambiguous": {
            "ko": "여러 약속이 '{id}' 로 시작합니다. 더 길게 써 주세요.",
            "en": "several loops start with '{id}'; give more of the id.",
        },
        "openloop.closed": {
            "ko": "닫았습니다 ({status}): {description}",
            "en": "closed ({status}): {description}",
        },
    }
)


async def openloop_command(
    service: OpenLoopService, agent_id: str, user_id: str, args: str, lang: Language
) -> str:
    words = args.split()
    if not words:
        return await _listing(service, agent_id, user_id, lang)
    if len(words) != 2 or words[0] not in ("done", "dismiss"):
        return t("openloop.usage", lang)
    matches = [
        lp
        for lp in await service.resolve_prefix(agent_id, user_id, words[1])
        if lp.status == "open"
    ]
    if not matches:
        return t("openloop.not_found", lang, id=words[1])
    if len(matches) > 1:
        return t("openloop.ambiguous", lang, id=words[1])
    status = "done" if words[0] == "done" else "dismissed"
    await service.set_status(matches[0].id, user_id, status)
    return t("openloop.closed", lang, status=status, description=matches[0].description)


async def _listing(service: OpenLoopService, agent_id: str, user_id: str, lang: Language) -> str:
    agenda = await service.agenda(agent_id, user_id)
    if not agenda.open:
        return t("openloop.none", lang)
    lines = []
    for loop in agenda.open:
        due = f"  ({loop.due_text}{'?' if loop.due_inferred else ''})" if loop.due_text else ""
        lines.append(f"{loop.id[:8]}  {loop.description}{due}")
    return "\n".join(lines)
