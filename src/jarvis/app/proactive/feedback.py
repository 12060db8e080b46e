"""Feedback on speaking first: 👍 / 👎 / "do it" / dismiss on one message (the HUD's card,
`POST /api/proactive/feedback`) or, in the terminal, `/good`, `/bad`, `/doit` on the person's
last proactive message. Each message counts once in its agent's learner; "do it" only hands back
a prompt that runs as an ordinary turn, through the tool gate like any other."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from jarvis.app.infra import AppAssembly
from jarvis.common.i18n import Language, t
from jarvis.core.commands import CommandContext, Handler, Outcome, Reply, RunPrompt
from jarvis.core.proactive import learner
from jarvis.core.proactive.store import ProactiveStore, Said

# What the card's buttons mean to the learner (a dismissed card counts as ignored).
LEARNED: dict[str, learner.Feedback] = {
    "thumbs_up": "thumbs_up",
    "thumbs_down": "thumbs_down",
    "do_it": "do_it",
    "dismiss": "ignored",
    "reply": "reply",
    "stop_topic": "stop_topic",
}
FEEDBACK = tuple(LEARNED)
COMMANDS = {"good": "thumbs_up", "bad": "thumbs_down", "doit": "do_it"}


def record(
    store: ProactiveStore,
    agent_id: str,
    user_id: str,
    message_id: str,
    feedback: str,
    now_ms: int,
    lang: Language,
) -> str | None:
    """Record `feedback` on one of this person's messages of `agent_id`. Returns the prompt
    "do it" starts as an ordinary turn ("" for other feedback), or None when the message is
    not theirs or not known."""
    if feedback not in FEEDBACK:
        return None
    state = store.load(agent_id)
    said = next((s for s in state.said if s.message_id == message_id), None)
    if said is None or said.user_id != user_id:
        return None
    # A card answered twice (two windows) counts once; a button after a reply or an ignore
    # counted by code replaces that count.
    if not said.feedback or (said.feedback in learner.IMPLICIT and feedback not in ("reply",)):
        counted = LEARNED[feedback]
        state.learner = learner.record(
            state.learner, said.kind, said.topic, counted, now_ms, replaces=said.feedback
        )
        said.feedback = feedback
        store.save(agent_id, state)
    if feedback != "do_it":
        return ""
    return t("proactive.do_it", lang, text=said.text)


def muted_until(store: ProactiveStore, agent_id: str, topic: str, now_ms: int) -> int | None:
    """Until when the agent keeps quiet about `topic` (None: it is not muted)."""
    until = store.load(agent_id).learner.muted_until_ms.get(topic, 0)
    return until if until > now_ms else None


def last_message(store: ProactiveStore, user_id: str) -> tuple[str, Said] | None:
    """The newest proactive message said to this person, by any agent: (agent, message)."""
    found: list[tuple[int, str, Said]] = []
    if store.dir.is_dir():
        for path in sorted(store.dir.glob("*.json")):
            mine = [s for s in store.load(path.stem).said if s.user_id == user_id]
            if mine:
                found.append((mine[-1].at_ms, path.stem, mine[-1]))
    if not found:
        return None
    _, agent_id, said = max(found, key=lambda item: item[0])
    return agent_id, said


def feedback_command(app: AppAssembly) -> Handler:
    """`/good`, `/bad`, `/doit`: feedback on the last proactive message ("do it" runs its
    prompt as the next ordinary turn)."""
    store = ProactiveStore(app.settings.home)

    async def handler(ctx: CommandContext) -> Outcome:
        feedback = COMMANDS[ctx.name.lstrip("/")]
        last = last_message(store, ctx.user_id)
        if last is None:
            return Reply(t("proactive.feedback.none", ctx.lang))
        agent_id, said = last
        answered = said.feedback and said.feedback not in learner.IMPLICIT
        now = app.clock.now_ms()
        prompt = record(store, agent_id, ctx.user_id, said.message_id, feedback, now, ctx.lang)
        if prompt:
            return RunPrompt(prompt)
        key = "proactive.feedback.already" if answered else f"proactive.feedback.{feedback}"
        line = t(key, ctx.lang, text=said.text[:80])
        until = muted_until(store, agent_id, said.topic, now)
        if until and not answered and feedback == "thumbs_down":  # said where it was answered
            day = datetime.fromtimestamp(until / 1000, ZoneInfo(app.settings.timezone))
            muted = t(
                "proactive.feedback.muted", ctx.lang, topic=said.topic, until=f"{day:%Y-%m-%d}"
            )
            line = f"{line}\n{muted}"
        return Reply(line)

    return handler
