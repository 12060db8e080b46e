"""Unspoken thoughts surface in the next answer when relevant: a real app on files, the
scripted model. A thought speaking first held back reaches the next relevant turn's context
once, never an unrelated turn, never the history."""

from __future__ import annotations

import json
from pathlib import Path

from jarvis.core.session import AgentSession
from jarvis.model_layer import FauxProvider
from tests.integration.thinking.test_speaking_first import (
    WEAK,
    Model,
    add_loop,
    reflection,
    reminded,
)

HEADER = "[아직 말하지 않은 생각"
THOUGHT = "분기 보고서 초안, 오늘 오후에 같이 볼까요?"


async def turn(session: AgentSession, provider: FauxProvider, text: str) -> str:
    """What the model saw in this turn's calls (the answer and the background judges)."""
    before = len(provider.calls)
    await session.prompt(text)
    await session.settle()
    return "\n".join(str(m.content) for c in provider.calls[before:] for m in c.messages)


async def test_a_held_back_thought_reaches_the_next_relevant_turn_once(tmp_path: Path) -> None:
    model = Model(reflection(ratings=WEAK))  # one factor rated 1: held back (weak_factor)
    (app, speaker, builder, got, provider), now = await reminded(tmp_path, model)
    [silent] = await speaker.tick(now)
    assert [v.reason for v in silent.verdicts] == ["weak_factor"] and got == []
    state = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert [u["text"] for u in state["unspoken"]] == [THOUGHT]
    session = await builder.create()
    seen = await turn(session, provider, "오늘 저녁 메뉴 추천해 줘")  # unrelated: not offered
    assert HEADER not in seen
    seen = await turn(session, provider, "분기 보고서는 어떻게 되어 가?")  # relevant: offered
    assert HEADER in seen and THOUGHT in seen
    seen = await turn(session, provider, "분기 보고서 다시 얘기해 보자")  # offered once only
    assert HEADER not in seen
    history = json.dumps(
        [e.message.model_dump() for e in await app.session_store.history(session.id)],
        ensure_ascii=False,
    )
    assert HEADER not in history and THOUGHT not in history  # never in the history
    state = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert [u["used"] for u in state["unspoken"]] == [True]


async def test_a_muted_topic_is_not_kept_and_off_nothing_is_offered(tmp_path: Path) -> None:
    model = Model(reflection())
    (app, speaker, builder, got, provider), now = await reminded(tmp_path, model)
    [spoke] = await speaker.tick(now)
    assert spoke.reason == "spoke"
    speaker.feedback("local", got[0]["message_id"], "stop_topic", now)  # "stop telling me"
    state = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert state["unspoken"] == []  # a spoken thought is not kept either
    await add_loop(app, "L2", "분기 보고서 최종본", now + 20 * 60_000)
    [muted] = await speaker.tick(now + 90 * 60_000)
    assert [v.reason for v in muted.verdicts] == ["muted_topic"]
    state = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert state["unspoken"] == []
    session = await builder.create()
    seen = await turn(session, provider, "분기 보고서는 어떻게 되어 가?")
    assert HEADER not in seen
