"""`/openloop`, `/openloop done|dismiss|explain <id>` (an 8-char id prefix is enough).

`explain` shows why a loop is what it is: how it was grounded and where its due came from,
each merge with its rule and fields, and the open loops it was kept apart from (and why).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from jarvis.agent_layer.openloop.openloop_types import OpenLoop
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.common.i18n import Language, register_messages, t

register_messages(
    {
        "openloop.none": {"ko": "챙길 약속이 없습니다.", "en": "Nothing on the AGENDA."},
        "openloop.usage": {
            "ko": "사용법: /openloop [done|dismiss|explain <id>]",
            "en": "usage: /openloop [done|dismiss|explain <id>]",
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
    if words[0] == "explain":
        if len(words) != 2:
            return t("openloop.explain.usage", lang)
        return await explain_command(service, agent_id, user_id, words[1], lang)
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


async def explain_command(
    service: OpenLoopService, agent_id: str, user_id: str, prefix: str, lang: Language
) -> str:
    """The loop (any status) whose id starts with ``prefix``, with its judgement notes."""
    matches = await service.explain(agent_id, user_id, prefix)
    if not matches:
        return t("openloop.not_found", lang, id=prefix)
    if len(matches) > 1:
        return t("openloop.ambiguous", lang, id=prefix)
    return explain_loop(matches[0], service.tz, lang)


def explain_loop(loop: OpenLoop, tz: ZoneInfo, lang: Language) -> str:
    lines = [t("openloop.explain.header", lang, id=loop.id, description=loop.description,
               status=loop.status)]  # fmt: skip
    if loop.evidence:
        lines.append(t("openloop.explain.evidence", lang, evidence=loop.evidence))
    if loop.due_ms is not None:
        due = datetime.fromtimestamp(loop.due_ms / 1000, tz).strftime("%Y-%m-%d %H:%M")
        key = "openloop.explain.due_guessed" if loop.due_inferred else "openloop.explain.due"
        lines.append(t(key, lang, due=due))
    if loop.status != "open":
        lines.append(t("openloop.explain.closed", lang, status=loop.status,
                       reason=loop.closed_reason or "-"))  # fmt: skip
    if not loop.notes:
        lines.append(t("openloop.explain.no_notes", lang))
    for note in loop.notes:
        other = note.other_id[:8] if note.other_id else "-"
        lines.append(t(f"openloop.explain.{note.event}", lang, text=note.text, other=other))
        if note.decision is not None:
            lines.append(t("openloop.explain.why", lang, why=note.decision.explain()))
        if note.detail:
            lines.append(t("openloop.explain.detail", lang, detail=note.detail))
    lines.append(t("openloop.explain.report", lang))
    return "\n".join(lines)
