"""The feedback learner, visible and resettable: one view per agent (`describe`) and the resets
(all, one kind, one muted topic) behind `GET /api/proactive/learner`, `POST
/api/proactive/learner/reset`, `jarvis thinking learner` and `/learner`."""

from __future__ import annotations

from typing import Any, Protocol
from zoneinfo import ZoneInfo

from jarvis.app.infra import AppAssembly
from jarvis.common.i18n import t
from jarvis.core.commands import CommandContext, Handler, Outcome, Reply
from jarvis.core.proactive.learner_view import describe, lines
from jarvis.core.proactive.learner_view import reset as reset_state
from jarvis.core.proactive.store import ProactiveStore, Said


class Speakers(Protocol):
    """What the view needs of the speaker: its agents and whether each speaks first."""

    store: ProactiveStore

    @property
    def builders(self) -> dict[str, Any]: ...

    def enabled(self, agent_id: str) -> bool: ...


def agent_view(store: ProactiveStore, agent_id: str, now_ms: int) -> dict[str, Any]:
    return {"agent_id": agent_id, **describe(store.load(agent_id).learner, now_ms)}


def views(speaker: Speakers, now_ms: int) -> list[dict[str, Any]]:
    """Every agent that speaks first or has learned something, main first."""
    out = []
    for agent_id in list(speaker.builders):
        speaks = speaker.enabled(agent_id)
        if not speaks and not speaker.store.path(agent_id).exists():
            continue
        profile = speaker.builders[agent_id].profile
        view = agent_view(speaker.store, agent_id, now_ms)
        out.append({**view, "name": profile.name or agent_id, "speaks_first": speaks})
    return out


def said_of(store: ProactiveStore, message_id: str) -> tuple[str, Said] | None:
    """The agent and the message a `proactive:<agent>:<id>` names (None: not kept)."""
    parts = message_id.split(":")
    if len(parts) != 3 or not store.path(parts[1]).exists():
        return None
    found = next((s for s in store.load(parts[1]).said if s.message_id == message_id), None)
    return (parts[1], found) if found is not None else None


def reset(store: ProactiveStore, agent_id: str, kind: str = "", topic: str = "") -> bool:
    """Reset all (no kind, no topic), one kind or one topic. False: that kind or topic is not
    known (nothing changed)."""
    state = store.load(agent_id)
    state.learner, known = reset_state(state.learner, kind, topic)
    if known:
        store.save(agent_id, state)
    return known


def reset_line(agent: str, kind: str, topic: str, known: bool, lang: Any) -> str:
    if not known:
        return t("learner.reset.unknown", lang, agent=agent, name=kind or topic)
    if topic:
        return t("learner.reset.topic", lang, agent=agent, topic=topic)
    if kind:
        return t("learner.reset.kind", lang, agent=agent, kind=kind)
    return t("learner.reset.all", lang, agent=agent)


def learner_command(app: AppAssembly) -> Handler:
    """`/learner` (what the session's agent learned), `/learner reset [KIND]`,
    `/learner unmute TOPIC`."""
    store = ProactiveStore(app.settings.home)
    tz = ZoneInfo(app.settings.timezone)

    async def handler(ctx: CommandContext) -> Outcome:
        agent_id = ctx.session.setup.agent_id
        verb, _, rest = ctx.args.partition(" ")
        rest = rest.strip()
        if not verb:
            view = agent_view(store, agent_id, app.clock.now_ms())
            return Reply("\n".join(lines(ctx.session.setup.agent_name, view, ctx.lang, tz)))
        if verb == "reset" or (verb == "unmute" and rest):
            kind, topic = (rest, "") if verb == "reset" else ("", rest)
            known = reset(store, agent_id, kind, topic)
            return Reply(reset_line(ctx.session.setup.agent_name, kind, topic, known, ctx.lang))
        return Reply(t("learner.usage", ctx.lang))

    return handler
