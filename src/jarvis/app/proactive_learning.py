"""What the person's own messages teach the feedback learner, on every prompt, with no model call:
a reply to a proactive message (or the messages it left ignored), and "stop telling me about X"
said in words (`core/proactive/stop_words.py`).

A stop request names a topic — or "that": the last thing said first. The topic is matched
against what the agents said first to this person, kept back, or muted before
(`learner.same_topic`); each match is muted like two dismissals, and a message it names counts
as "stop_topic" once. Words that match nothing are muted as said on the person's agent when it
speaks first (a later candidate whose topic they name is vetoed) and the line says so honestly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from jarvis.common.i18n import Language, t
from jarvis.core.proactive import learner
from jarvis.core.proactive.replies import Sent, settle
from jarvis.core.proactive.stop_words import StopRequest, stop_request
from jarvis.core.proactive.store import AgentState, ProactiveStore, Said

DEICTIC_MS = 86_400_000  # "stop telling me about that" names a message of the last day


def settle_person(state: AgentState, user_id: str, wrote_at_ms: int | None, now_ms: int) -> bool:
    """Count replies and ignored messages of one person (every person when `user_id` is "")
    in `state`'s learner. Returns whether anything was counted."""
    people = {s.user_id for s in state.said} if not user_id else {user_id}
    changed = False
    for person in sorted(people):
        mine = [s for s in state.said if s.user_id == person]
        sent = [Sent(s.at_ms, bool(s.feedback)) for s in mine]
        wrote = wrote_at_ms if person == user_id else None
        for index, answer in settle(sent, wrote, now_ms):
            said = mine[index]
            state.learner = learner.record(state.learner, said.kind, said.topic, answer, now_ms)
            said.feedback = answer
            changed = True
    return changed


def settle_store(store: ProactiveStore, agent_id: str, now_ms: int) -> None:
    """The ticker's pass: messages whose window closed without an answer count as ignored."""
    if not store.path(agent_id).exists():
        return
    state = store.load(agent_id)
    if settle_person(state, "", None, now_ms):
        store.save(agent_id, state)


@dataclass(frozen=True)
class Heard:
    notice: str = ""  # one line to the person ("" when nothing was asked)
    muted: tuple[tuple[str, str], ...] = ()  # (agent, topic) muted now


def _agents(store: ProactiveStore) -> list[str]:
    return sorted(p.stem for p in store.dir.glob("*.json")) if store.dir.is_dir() else []


def _matches(state: AgentState, user_id: str, named: str) -> set[str]:
    mine = [s.topic for s in state.said if s.user_id == user_id]
    kept = [u.topic for u in state.unspoken if u.user_id == user_id]
    known = [*mine, *kept, *state.learner.dismissals, *state.learner.muted_until_ms]
    return {topic for topic in known if learner.same_topic(named, topic)}


def _newest(states: dict[str, AgentState], user_id: str, now_ms: int) -> tuple[str, str] | None:
    """ "That": the newest message said first to this person by any agent, if of the last day."""
    said = [
        (s.at_ms, agent, s.topic)
        for agent, state in states.items()
        for s in state.said
        if s.user_id == user_id and now_ms - s.at_ms < DEICTIC_MS
    ]
    return max(said)[1:] if said else None


def _stop(state: AgentState, user_id: str, topics: set[str], now_ms: int) -> None:
    for topic in sorted(topics):
        said: Said | None = next(
            (s for s in reversed(state.said) if s.user_id == user_id and s.topic == topic), None
        )
        if said is not None and (not said.feedback or said.feedback in learner.IMPLICIT):
            state.learner = learner.record(
                state.learner, said.kind, topic, "stop_topic", now_ms, replaces=said.feedback
            )
            said.feedback = "stop_topic"
        else:
            state.learner = learner.mute(state.learner, topic, now_ms)


def stop_in_words(
    store: ProactiveStore,
    request: StopRequest,
    agent_id: str,
    user_id: str,
    now_ms: int,
    speaks: bool,
) -> tuple[tuple[str, str], ...]:
    """Mute what `request` names for this person; the (agent, topic) pairs muted."""
    states = {agent: store.load(agent) for agent in _agents(store)}
    found: dict[str, set[str]] = {}
    if not request.topic:
        newest = _newest(states, user_id, now_ms)
        if newest is not None:
            found[newest[0]] = {newest[1]}
    else:
        for agent, state in states.items():
            topics = _matches(state, user_id, request.topic)
            if topics:
                found[agent] = topics
    for agent, topics in found.items():
        _stop(states[agent], user_id, topics, now_ms)
        store.save(agent, states[agent])
    if not found and request.topic and speaks:  # nothing said about it yet: muted as said
        state = states.get(agent_id) or store.load(agent_id)
        state.learner = learner.mute(state.learner, request.topic, now_ms)
        store.save(agent_id, state)
    return tuple((agent, topic) for agent, topics in found.items() for topic in sorted(topics))


def notice(
    request: StopRequest,
    muted: tuple[tuple[str, str], ...],
    speaks: bool,
    until: str,
    lang: Language,
) -> str:
    if muted:
        topics = ", ".join(dict.fromkeys(topic for _, topic in muted))
        return t("proactive.stop.muted", lang, topics=topics, until=until)
    if not request.topic:
        return t("proactive.stop.unknown_that", lang)
    if speaks:
        return t("proactive.stop.muted_words", lang, topic=request.topic, until=until)
    return t("proactive.stop.not_speaking", lang, topic=request.topic)


def heard(
    store: ProactiveStore, speaks: bool, tz: ZoneInfo
) -> Callable[[str, str, str, int, Language], str]:
    """The per-prompt hook: (agent, person, text, now, language) → the line to show ("")."""
    # Per agent: the file's (mtime, size) when it held no unanswered message — a prompt then
    # reads nothing (the file is parsed again only when it changes).
    settled: dict[str, tuple[int, int]] = {}

    def hook(agent_id: str, user_id: str, text: str, now_ms: int, lang: Language) -> str:
        request = stop_request(text)
        line = ""
        if request is not None:
            muted = stop_in_words(store, request, agent_id, user_id, now_ms, speaks)
            until_ms = now_ms + learner.MUTE_MS
            until = datetime.fromtimestamp(until_ms / 1000, tz).strftime("%Y-%m-%d")
            if muted or speaks or _agents(store):  # silent where nothing ever speaks first
                line = notice(request, muted, speaks, until, lang)
        mark = _mark(store, agent_id)
        if mark is None or settled.get(agent_id) == mark:
            return line  # no file, or unchanged since every message had its answer
        state = store.load(agent_id)
        wrote = None if request is not None else now_ms  # a stop is not a reply
        if settle_person(state, user_id, wrote, now_ms):
            store.save(agent_id, state)
        settled.pop(agent_id, None)
        if all(s.feedback for s in state.said):
            settled[agent_id] = _mark(store, agent_id) or mark
        return line

    return hook


def _mark(store: ProactiveStore, agent_id: str) -> tuple[int, int] | None:
    try:
        stat = store.path(agent_id).stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)
