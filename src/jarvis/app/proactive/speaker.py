"""Speaking first, wired (seed 004's proactive core). Off by default; per agent.

On each unattended tick: for every agent that speaks first, every person with a trigger — an open
AGENDA item coming due, a session of theirs that had turns and has been quiet for `idle_sec`, a
goal that finished, a Focus step that finished, a new item from one of their sources — gets one
pass: the situation's fingerprint (unchanged → no call), today's token
budget (checked before the call), one reflection call with `inner_thought_reflection.md` (no
tools), the pure gate. What it says goes to the person's open windows as
`proactive_message {kind: proactive}`; "do it" only hands back a prompt that the window sends as
an ordinary turn, through the tool gate like any other. Reflection only reads the open loops.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from jarvis.agent_layer.openloop.openloop_model import OpenLoop
from jarvis.agent_layer.openloop.openloop_types import format_numbered
from jarvis.agent_layer.thought.engine import TemplateSource
from jarvis.app.infra import AppAssembly
from jarvis.app.proactive.feedback import record
from jarvis.app.proactive.happenings import collect
from jarvis.app.proactive_learning import settle_person, settle_store
from jarvis.app.session_builder import SessionBuilder
from jarvis.app.thinking_setup import approval_waiting
from jarvis.common.atomic import atomic_write_text
from jarvis.common.clock import new_id
from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger
from jarvis.core.proactive import learner
from jarvis.core.proactive.core import PassResult, ProactiveCore
from jarvis.core.proactive.gate import Policy, Situation
from jarvis.core.proactive.happenings import Happening, cursor, fresh
from jarvis.core.proactive.reflection import (
    LANGUAGE_NAMES,
    REFLECTION_FILE,
    REFLECTION_MARKER,
    default_reflection,
    fill_reflection,
    speaks,
)
from jarvis.core.proactive.store import AgentState, ProactiveStore, Said
from jarvis.core.proactive.surface import HELD_BACK, Unspoken, keep
from jarvis.core.sources.route import Gated, gate_entries, quiet_end_ms
from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import ProviderError, Stop, TextDelta
from jarvis.model_layer.messages import LLMContext, UserMessage

_log = get_logger("jarvis.proactive")
_SYSTEM = f"{REFLECTION_MARKER} Reflect while the person is away. Reply with a JSON array only."
_DAY_MS = 86_400_000


class Hub(Protocol):
    """Where messages go: the person's open windows (`unattended.notify.ProactiveHub`)."""

    async def publish(
        self, user_id: str, text: str, kind: str, message_id: str, **extra: Any
    ) -> None: ...

    async def send(self, user_id: str, event: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class Trigger:
    agent_id: str
    user_id: str
    kind: str  # due | idle | goal_done | focus_step | source_item
    loops: tuple[OpenLoop, ...] = ()
    session: str = ""  # the quiet session (idle)
    quiet_min: int = 0
    events: tuple[Happening, ...] = ()  # goal_done | focus_step | source_item


class ProactiveSpeaker:
    def __init__(
        self,
        app: AppAssembly,
        builders: dict[str, SessionBuilder],
        hub: Hub,
        approval_pending: Callable[[str], bool] | None = None,
    ) -> None:
        self.app = app
        self.builders = builders  # the live table: agents added later are seen
        self.hub = hub
        self.cfg = app.settings.thinking.proactive
        self.tz = ZoneInfo(app.settings.timezone)
        self.store = ProactiveStore(app.settings.home)
        self.template = TemplateSource(self._template_path(), default_reflection)
        self.approval_pending = approval_pending or (lambda sid: approval_waiting(app, sid))
        self._cores: dict[str, ProactiveCore] = {}
        self._idle_seen: dict[str, int] = {}  # session → the updated_ms already reflected on
        self._running: asyncio.Task[list[PassResult]] | None = None
        self._started_ms = app.clock.now_ms()  # happenings before this are not news

    # -- settings -------------------------------------------------------------------------------
    def enabled(self, agent_id: str) -> bool:
        builder = self.builders.get(agent_id)
        if builder is None:
            return False
        chosen = builder.profile.proactive
        return self.cfg.enabled if chosen is None else chosen

    def _template_path(self) -> Path:
        path = self.app.settings.home / REFLECTION_FILE
        if self.cfg.enabled and not path.exists():
            self.write_default_template()
        return path

    def write_default_template(self) -> None:
        path = self.app.settings.home / REFLECTION_FILE
        if not path.exists():  # the shipped default, put where the person can edit it
            try:
                atomic_write_text(path, default_reflection())
            except OSError as exc:
                _log.warning("could not write %s: %s", path, exc)

    # -- triggers -------------------------------------------------------------------------------
    def poke(self, now_ms: int) -> None:
        """From the unattended ticker: one tick at a time, never holding the ticker up."""
        if self._running is None or self._running.done():
            self._running = asyncio.create_task(self._tick_logged(now_ms))

    async def aclose(self) -> None:
        """Stop a pass under way (its reservation stays counted; nothing is said)."""
        if self._running is not None:
            self._running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._running

    async def _tick_logged(self, now_ms: int) -> list[PassResult]:
        try:
            return await self.tick(now_ms)
        except Exception:  # one bad pass never stops the next tick
            _log.exception("speaking first: tick failed")
            return []

    async def tick(self, now_ms: int) -> list[PassResult]:
        for agent_id in list(self.builders):  # closed reply windows: those messages were ignored
            settle_store(self.store, agent_id, now_ms)
        results: list[PassResult] = []
        for trigger in await self.triggers(now_ms):
            results.append(await self.run(trigger, now_ms))
        return results

    async def triggers(self, now_ms: int) -> list[Trigger]:
        agents = [a for a in list(self.builders) if self.enabled(a)]
        if not agents:
            return []
        self.write_default_template()
        found: list[Trigger] = []
        horizon = now_ms + int(self.cfg.due_within_min * 60_000)
        due: dict[tuple[str, str], list[OpenLoop]] = {}
        if self.app.settings.openloop.enabled:
            for loop in await self.app.openloops.store.open_with_due():
                if loop.agent_id in agents and loop.due_ms is not None and loop.due_ms <= horizon:
                    due.setdefault((loop.agent_id, loop.user_id), []).append(loop)
        for (agent_id, user_id), loops in sorted(due.items()):
            found.append(Trigger(agent_id, user_id, "due", tuple(loops)))
        idle_ms = int(self.cfg.idle_sec * 1000)
        for agent_id in agents:
            for session in list(self.builders[agent_id].live.values()):
                info = session.info
                quiet = now_ms - info.updated_ms
                if info.turns == 0 or session.running or quiet < idle_ms:
                    continue
                if self._idle_seen.get(session.id) == info.updated_ms:
                    continue  # this quiet spell was reflected on already
                self._idle_seen[session.id] = info.updated_ms
                trigger = Trigger(
                    agent_id, info.user_id, "idle", session=session.id, quiet_min=quiet // 60_000
                )
                found.append(trigger)
        return found + self._happenings(agents)

    def _happenings(self, agents: list[str]) -> list[Trigger]:
        """A finished goal, a finished Focus step, a new source item: one trigger per (agent,
        person, kind), each happening taken once (the agent's cursor moves past it)."""
        states = {agent_id: self.store.load(agent_id) for agent_id in agents}
        since = {a: state.events_ms or self._started_ms for a, state in states.items()}
        items = collect(self.app.settings.home, min(since.values()))
        groups = fresh(items, since, set(agents))
        for agent_id, state in states.items():
            taken = [h for group, hs in groups.items() if group[0] == agent_id for h in hs]
            if taken:
                state.events_ms = cursor(taken, agent_id, since[agent_id])
                self.store.save(agent_id, state)
        return [
            Trigger(agent_id, user_id, kind, events=tuple(happened))
            for (agent_id, user_id, kind), happened in groups.items()
        ]

    # -- one pass -------------------------------------------------------------------------------
    async def run(self, trigger: Trigger, now_ms: int) -> PassResult:
        template = self.template.text()
        if not speaks(template):  # seed 003: no `utterance` key → speaking first is off
            return PassResult(None, False, "template_off", [])
        agent_id, user_id = trigger.agent_id, trigger.user_id
        state = self.store.load(agent_id)
        core = self._core(agent_id)
        local = datetime.fromtimestamp(now_ms / 1000, self.tz)
        core.day, core.used_today = state.day, state.used_today
        loops = []
        if self.app.settings.openloop.enabled:
            loops = await self.app.openloops.current(agent_id, user_id)
        lang = self.app.language_of(user_id)  # the page they last opened, else the setting
        open_loops = format_numbered(loops, self.tz) or t("thought.no_loops", lang)
        recent = await self._recent(trigger, lang)
        prompt = fill_reflection(
            template,
            trigger=self._why(trigger, lang),
            open_loops=open_loops,
            recent=recent,
            now=local.strftime("%Y-%m-%d %H:%M %A"),
            language=LANGUAGE_NAMES[lang],
        )
        # The reservation is an upper bound: a token is at least one byte of the prompt.
        estimate = len((_SYSTEM + prompt).encode("utf-8")) + self.cfg.max_tokens
        inputs = {
            "trigger": trigger.kind,
            "loops": open_loops,
            "recent": recent,
            "events": [h.key for h in trigger.events],
        }
        due = {
            lp.description[:60]: (lp.due_ms - now_ms) / 60_000
            for lp in trigger.loops
            if lp.due_ms is not None
        }
        situation = self._situation(state, user_id, local.hour, now_ms)
        core.policy = self._policy(state.learner)
        result = await core.run_pass(
            inputs,
            prompt,
            situation,
            local.date().isoformat(),
            due,
            key=user_id,
            estimate=estimate,
        )
        state.day, state.used_today = core.day, core.used_today
        held = [
            Unspoken(new_id()[:12], user_id, c.kind, c.topic, c.text, now_ms, v.reason)
            for c, v in zip(result.candidates, result.verdicts, strict=True)
            if not v.speak and v.reason in HELD_BACK
        ]
        state.unspoken = keep(state.unspoken, held, now_ms)  # may surface in a later answer
        if result.called:  # the HUD's "thoughts" view: every candidate, its score and why
            await self.hub.send(user_id, pass_event(agent_id, trigger.kind, result, now_ms))
        if result.said is not None:
            said = result.said
            message_id = f"proactive:{agent_id}:{new_id()[:12]}"
            state.said.append(Said(message_id, user_id, said.kind, said.topic, said.text, now_ms))
            settle_person(state, user_id, None, now_ms)  # the one before it, unanswered: ignored
            self.store.save(agent_id, state)
            await self.hub.publish(
                user_id,
                said.text,
                "proactive",
                message_id,
                agent_id=agent_id,
                topic=said.topic,
                proactive_kind=said.kind,
                actions=["thumbs_up", "thumbs_down", "do_it"],
            )
        else:
            self.store.save(agent_id, state)
        return result

    # -- an immediate source entry (docs/sources.md): the gate, no model call, no tokens ---------
    def speaks_first(self, agent_id: str) -> bool:
        return self.enabled(agent_id) and speaks(self.template.text())

    def gate_entries(
        self, agent_id: str, user_id: str, topic: str, texts: list[str], now_ms: int
    ) -> tuple[Gated, int | None]:
        """Each entry's verdict, and when the quiet hours end if they held one back."""
        state = self.store.load(agent_id)
        local = datetime.fromtimestamp(now_ms / 1000, self.tz)
        situation = self._situation(state, user_id, local.hour, now_ms)
        gated = gate_entries(topic, texts, situation, self._policy(state.learner))
        quiet = any(v.reason == "quiet_hours" for v in gated.verdicts)
        return gated, quiet_end_ms(local, self.cfg.quiet_end) if quiet else None

    def said_at_once(self, agent_id: str, said: Said) -> None:
        state = self.store.load(agent_id)  # counted once: today's count, too soon, feedback
        if all(s.message_id != said.message_id for s in state.said):
            state.said.append(said)
            self.store.save(agent_id, state)

    # -- feedback -------------------------------------------------------------------------------
    def feedback(self, user_id: str, message_id: str, feedback: str, now_ms: int) -> str | None:
        """Record 👍 / 👎 / "do it" / dismiss on one of this person's messages. Returns the
        prompt "do it" starts as an ordinary turn ("" for other feedback), or None when the
        message is not theirs or not known."""
        agent_id = message_id.split(":")[1] if message_id.count(":") == 2 else ""
        if agent_id not in self.builders:
            return None
        lang = self.app.language_of(user_id)  # the page they last opened, else the setting
        return record(self.store, agent_id, user_id, message_id, feedback, now_ms, lang)

    # -- the edge ---------------------------------------------------------------------------------
    def _core(self, agent_id: str) -> ProactiveCore:
        core = self._cores.get(agent_id)
        if core is None:
            core = ProactiveCore(
                lambda prompt: self._reflect(agent_id, prompt),
                Policy(),
                daily_tokens=self.cfg.daily_tokens,
                timeout_sec=self.cfg.timeout_sec,
            )
            self._cores[agent_id] = core
        return core

    async def _reflect(self, agent_id: str, prompt: str) -> tuple[str, int]:
        """One call with no tools: the model proposes, the gate decides."""
        builder = self.builders[agent_id]
        model = builder.profile.model or self.app.settings.model
        provider = self.app.background_provider_for(model)
        ctx = LLMContext(system_prompt=_SYSTEM, messages=[UserMessage(content=prompt)])
        parts: list[str] = []
        used = 0
        options = StreamOptions(max_tokens=self.cfg.max_tokens)
        async for event in provider.stream(model.model, ctx, options):
            if isinstance(event, TextDelta):
                parts.append(event.delta)
            elif isinstance(event, ProviderError):
                raise RuntimeError(event.message)
            elif isinstance(event, Stop):
                used = event.usage.input_tokens + event.usage.output_tokens
        return "".join(parts), used

    def _situation(self, state: AgentState, user_id: str, hour: int, now_ms: int) -> Situation:
        mine = [s for s in state.said if s.user_id == user_id]
        today = [s for s in mine if now_ms - s.at_ms < _DAY_MS]
        last = max((s.at_ms for s in mine), default=None)
        sessions = [
            s
            for b in list(self.builders.values())
            for s in list(b.live.values())
            if s.info.user_id == user_id
        ]
        return Situation(
            local_hour=hour,
            turn_running=any(s.running for s in sessions),
            approval_pending=any(self.approval_pending(s.id) for s in sessions),
            minutes_since_last=None if last is None else (now_ms - last) / 60_000,
            today_count=len(today),
            muted_topics=learner.muted(state.learner, now_ms),
            recent_topics=frozenset(s.topic for s in today),
            acceptance={k: learner.acceptance(state.learner, k) for k in _KINDS},
        )

    def _policy(self, state: learner.LearnerState) -> Policy:
        base = Policy(quiet_start=self.cfg.quiet_start, quiet_end=self.cfg.quiet_end)
        thresholds = {k: learner.threshold(state, k, v) for k, v in base.thresholds.items()}
        return replace(base, thresholds=thresholds)

    async def _recent(self, trigger: Trigger, lang: Language) -> str:
        if not trigger.session:
            return t("thought.no_recent", lang)
        lines: list[str] = []
        with contextlib.suppress(Exception):
            for entry in (await self.app.session_store.history(trigger.session))[-6:]:
                content = entry.message.content
                if entry.message.role in ("user", "assistant") and isinstance(content, str):
                    lines.append(f"{entry.message.role}: {content[:300]}")
        return "\n".join(lines) or t("thought.no_recent", lang)

    def _why(self, trigger: Trigger, lang: Language) -> str:
        if trigger.kind == "due":
            items = "; ".join(lp.description for lp in trigger.loops)
            return t("proactive.trigger.due", lang, items=items)
        if trigger.events:
            items = "; ".join(h.text for h in trigger.events)
            return t(f"proactive.trigger.{trigger.kind}", lang, items=items)
        return t("proactive.trigger.idle", lang, minutes=trigger.quiet_min)


_KINDS = ("reminder", "follow_up", "suggestion", "news")


def pass_event(agent_id: str, trigger: str, result: PassResult, now_ms: int) -> dict[str, Any]:
    """`proactive_pass`: one reflection's candidates with the gate's score and verdict."""
    candidates = [
        {
            "kind": c.kind,
            "topic": c.topic,
            "text": c.text,
            "score": v.score,
            "spoken": result.said is c,
            "why": v.reason,
        }
        for c, v in zip(result.candidates, result.verdicts, strict=True)
    ]
    return {
        "type": "proactive_pass",
        "pass_id": f"pass:{agent_id}:{new_id()[:12]}",  # a window told twice shows it once
        "agent_id": agent_id,
        "trigger": trigger,
        "reason": result.reason,
        "at_ms": now_ms,
        "candidates": candidates,
    }
