"""`/procedures list|show|approve|reject|learn` for the agent that typed it (seed 000): a
person sees and decides only that agent's procedures. `jarvis procedures` prints the same."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from jarvis.common.i18n import Language, t
from jarvis.core.procedures.learner import ProcedureLearner, learn_segment
from jarvis.core.procedures.model import Procedure
from jarvis.core.procedures.review import approve, reject
from jarvis.core.procedures.segment import Segment

SegmentSource = Callable[[], Awaitable[Segment | None]]


async def procedures_command(
    learner: ProcedureLearner,
    agent: str,
    user: str,
    args: str,
    lang: Language,
    now_ms: int,
    segment: SegmentSource | None = None,
    session_id: str = "",
) -> str:
    words = args.split()
    verb = words[0] if words else "list"
    library = learner.library
    if verb == "list" and len(words) <= 1:
        return listing(library.of_agent(agent), lang)
    if verb == "learn" and segment is not None:
        found = await segment()
        if found is None:
            return t("procedures.unlearnable", lang)
        outcome, name = await learn_segment(learner, agent, session_id, found)
        return t(f"procedures.{outcome}", lang, name=name)
    if len(words) != 2 or verb not in ("show", "approve", "reject"):
        return t("procedures.usage", lang)
    name = words[1]
    if verb == "show":
        procedure = library.get(agent, name)
        return (
            t("procedures.not_found", lang, name=name)
            if procedure is None
            else show(procedure, lang)
        )
    if verb == "approve":
        decision = await approve(library, learner.memory, agent, user, name, now_ms)
    else:
        decision = reject(library, agent, name)
    tool = "procedure_" + name.replace("-", "_")
    return t(f"procedures.{decision}", lang, name=name, tool=tool)


def listing(procedures: list[Procedure], lang: Language) -> str:
    if not procedures:
        return t("procedures.none", lang)
    lines = []
    for procedure in procedures:
        marks = [t(f"procedures.status.{procedure.status}", lang)]
        if procedure.revision is not None:
            marks.append(t("procedures.has_revision", lang))
        if procedure.displaced:
            marks.append(t("procedures.displaced", lang, count=len(procedure.displaced)))
        lines.append(f"{procedure.name}  [{', '.join(marks)}]  {procedure.description}")
    return "\n".join(lines)


def show(procedure: Procedure, lang: Language) -> str:
    status = t(f"procedures.status.{procedure.status}", lang)
    head = f"{procedure.name} · {procedure.source} · {status}"
    lines = [head, procedure.description, t("procedures.current", lang), procedure.body]
    if procedure.when or procedure.keywords:
        lines.append(f"when: {procedure.when} · keywords: {', '.join(procedure.keywords)}")
    if procedure.plan:
        lines.append("plan: " + " → ".join(step.tool for step in procedure.plan))
    if procedure.revision is not None:
        rev = procedure.revision
        lines += ["", t("procedures.revision", lang, generation=rev.generation), rev.body]
    for old in procedure.displaced:
        lines += [
            "",
            f"({t('procedures.displaced', lang, count=1)}, gen {old.generation})",
            old.body,
        ]
    return "\n".join(lines)
