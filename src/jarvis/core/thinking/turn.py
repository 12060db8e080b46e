"""The thinking step of a turn, between the security pipeline and the loop (seed 004).

Every validated prompt is routed (`thought_route`); a routed "think" buys the provider's effort
setting where the model has one, and — when the agent's engine is `auto` (or `always`) — one
inner-thought call whose frame joins this turn's model-visible message, never the history.
Every started thought ends with `thought_end`; a failed one leaves the turn exactly as with the
engine off.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from jarvis.agent_layer.events import (
    AgentEnd,
    AgentError,
    EventSink,
    MessageUpdate,
    ToolExecutionEnd,
    ToolExecutionStart,
)
from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.thought import Route, RouteInput, RouterWeights, route
from jarvis.agent_layer.thought.engine import InnerThoughtEngine, ThoughtFrame
from jarvis.agent_layer.thought.events import (
    InnerThought,
    ProactiveMessage,
    ThoughtEnd,
    ThoughtRoute,
)
from jarvis.common.clock import new_id
from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger
from jarvis.core.thinking.fillers import (
    Pending,
    WaitTracker,
    choose_filler,
    choose_tool_filler,
    tool_keys,
)
from jarvis.core.thinking.proposals import focus_proposal
from jarvis.model_layer.messages import AssistantMessage, Message, UserMessage

_log = get_logger("jarvis.thought")

EngineMode = Literal["off", "auto", "always"]
# Routes decided by a hard "never" rule: not even `always` thinks on them.
HARD_NO = frozenset({"approval_answer", "slash_command", "yes_no", "acknowledgement"})
_RECENT_MESSAGES = 6
_RECENT_CHARS = 300

# Open loops for the thought, newest first, numbered `[1] description (due …)`.
OpenLoopLines = Callable[[str, str], Awaitable[str]]


def runs_thought(mode: EngineMode, decided: Route) -> bool:
    """Whether the inner-thought call runs for this route (pure)."""
    if mode == "off" or decided.reason in HARD_NO:
        return False
    return mode == "always" or decided.think


@dataclass(frozen=True)
class ThinkingPlan:
    route: Route
    frame: ThoughtFrame | None = None
    effort: str | None = None
    person: str = ""  # the `[사용자]` section: what the user model holds as active facts
    unspoken: str = ""  # thoughts speaking first held back, relevant to this message
    heard: str = ""  # what the person's words changed in the learner ("stop telling me about X")

    def note(self, lang: Language) -> str:
        """What the model sees this turn only: the person's facts, unspoken thoughts relevant
        to the message, and the thought."""
        thought = ""
        if self.frame is not None:
            f = self.frame
            parts = {"interpretation": f.interpretation, "decision": f.decision, "frame": f.frame}
            thought = t("thought.note", lang, **parts)
        said = (self.person, self.unspoken, self.heard, thought)
        return "\n\n".join(part for part in said if part)

    def loop_config(
        self, config: AgentLoopConfig, askable: Collection[str] = (), text: str = ""
    ) -> AgentLoopConfig:
        """The routed "think" buys the provider's effort setting, when the model has one; a
        thought's `start_focus` opens the turn with a `focus` call (`proposals.py`) when
        `askable` — the turn's tools, none when nobody can be asked — has it."""
        if self.route.think and self.effort is not None:
            options = config.options.model_copy(update={"reasoning_effort": self.effort})
            config = dataclasses.replace(config, options=options)
        call = focus_proposal(self.frame, text, askable, f"call_{new_id()[:24]}")
        if call is not None:
            config = dataclasses.replace(config, opening=AssistantMessage(tool_calls=[call]))
        return config


@dataclass(frozen=True)
class TurnScope:
    agent_id: str
    user_id: str
    language: Language
    turn: int = 0


class TurnHost(Protocol):
    """The session a turn runs in (AgentSession is one)."""

    @property
    def id(self) -> str: ...

    def emit(self, event: BaseModel) -> None: ...

    def subscribe(self, sink: EventSink) -> Callable[[], None]: ...


@dataclass(frozen=True)
class Fillers:
    """Filler settings of one agent: where waits are tracked, when a wait counts as long."""

    waits: WaitTracker
    answer_key: str  # the answer model's key in `waits` (first-token times)
    after_sec: float = 2.0


class TurnThinking:
    def __init__(
        self,
        weights: RouterWeights,
        *,
        mode: EngineMode = "off",
        engine: InnerThoughtEngine | None = None,
        effort: str | None = None,
        open_loops: OpenLoopLines | None = None,
        pending_approval: Callable[[str], bool] | None = None,
        now: Callable[[], str] = lambda: "",
        fillers: Fillers | None = None,
        person: Callable[[str, Language], str] | None = None,
        unspoken: Callable[[TurnScope, str], str] | None = None,
        heard: Callable[[TurnScope, str], str] | None = None,
    ) -> None:
        self.weights = weights
        self.mode: EngineMode = mode if engine is not None else "off"
        self.engine = engine
        self.effort = effort
        self.open_loops = open_loops
        self.pending_approval = pending_approval
        self.now = now  # the person's local time, for the template
        self.fillers = fillers
        self.person = person  # user id, language → the `[사용자]` section ("" when none)
        self.unspoken = unspoken  # (scope, message) → held-back thoughts relevant to it ("")
        self.heard = heard  # (scope, message) → the learner's one line about it ("")

    def unattended(self) -> TurnThinking:
        """The same step for turns nobody typed (a schedule, a goal): their prompts are not the
        person replying to a proactive message or asking it to stop, so the learner's hook is
        left out."""
        twin = copy.copy(self)
        twin.heard = None
        return twin

    async def plan(
        self,
        text: str,
        recent: list[Message],
        scope: TurnScope,
        host: TurnHost,
        abort: asyncio.Event,
    ) -> ThinkingPlan:
        emit = host.emit
        pending = self.pending_approval(host.id) if self.pending_approval else False
        decided = route(RouteInput(text, pending_approval=pending), self.weights)
        emit(
            ThoughtRoute(
                think=decided.think,
                p_think=decided.p_think,
                reason=decided.reason,
                engine=self.mode,
            )
        )
        person = self.person(scope.user_id, scope.language) if self.person else ""
        plan = ThinkingPlan(
            decided,
            effort=self.effort,
            person=person,
            unspoken=self._guarded(self.unspoken, scope, text),
        )
        line = self._guarded(self.heard, scope, text)
        if line:  # one line to the person, by code; the model hears it too (this turn only)
            host.emit(
                ProactiveMessage(
                    text=line, kind="answer", message_id=f"learner:{host.id}:{scope.turn}"
                )
            )
            plan = dataclasses.replace(plan, heard=f"[{line}]")
        filled = False
        if self.engine is not None and runs_thought(self.mode, decided):
            filled = self._filler("thought", f"thought:{self.engine.model}", scope, host)
            plan = dataclasses.replace(
                plan, frame=await self._timed_thought(text, recent, scope, emit, abort)
            )
        if self.fillers is not None:
            if not filled:
                filled = self._filler("first_round", self.fillers.answer_key, scope, host)
            _TurnWatch(host, self.fillers, scope, filled)
        return plan

    @staticmethod
    def _guarded(read: Callable[[TurnScope, str], str] | None, scope: TurnScope, text: str) -> str:
        if read is None:
            return ""
        try:
            return read(scope, text)
        except Exception:  # never a broken turn because of a kept thought or the learner
            _log.exception("speaking first's per-turn step failed")
            return ""

    async def _timed_thought(
        self,
        text: str,
        recent: list[Message],
        scope: TurnScope,
        emit: EventSink,
        abort: asyncio.Event,
    ) -> ThoughtFrame | None:
        assert self.engine is not None
        frame: ThoughtFrame | None = None
        reason = "error"
        start = time.monotonic()
        try:
            frame, reason = await self._think(self.engine, text, recent, scope, abort)
        except Exception:  # never a broken turn because of a thought
            _log.exception("inner thought failed")
        finally:
            if frame is not None:
                emit(InnerThought(**dataclasses.asdict(frame)))
            emit(ThoughtEnd(ok=frame is not None, reason="" if frame else reason))
        if self.fillers is not None and reason != "aborted":
            self.fillers.waits.record(f"thought:{self.engine.model}", time.monotonic() - start)
        return frame

    def _filler(self, pending: Pending, key: str, scope: TurnScope, host: TurnHost) -> bool:
        """At most one filler per turn, chosen by code (see fillers.py)."""
        if self.fillers is None:
            return False
        waits = self.fillers.waits
        line = choose_filler(
            pending,
            waits.predicted(key),
            self.fillers.after_sec,
            waits.last_three(host.id),
            scope.language,
        )
        if line is None:
            return False
        waits.said(host.id, line)
        message_id = f"filler:{host.id}:{scope.turn}"
        host.emit(ProactiveMessage(text=line, kind="filler", message_id=message_id))
        return True

    async def _think(
        self,
        engine: InnerThoughtEngine,
        text: str,
        recent: list[Message],
        scope: TurnScope,
        abort: asyncio.Event,
    ) -> tuple[ThoughtFrame | None, str]:
        loops = ""
        if self.open_loops is not None:
            try:
                loops = await self.open_loops(scope.agent_id, scope.user_id)
            except Exception as exc:  # the thought goes on without the AGENDA
                _log.warning("open loops for the thought unavailable: %s", exc)
        ctx = engine.context(
            text=text,
            recent=recent_lines(recent) or t("thought.no_recent", scope.language),
            open_loops=loops or t("thought.no_loops", scope.language),
            now=self.now(),
        )
        result = await engine.think(ctx, abort)
        return result.frame, result.reason


class _TurnWatch:
    """One turn's waits: the answer model's first text or tool call (once), each tool call's
    run time, and the filler of a tool call predicted to be slow — when the turn has had none."""

    def __init__(self, host: TurnHost, fillers: Fillers, scope: TurnScope, filled: bool) -> None:
        self.host = host
        self.fillers = fillers
        self.scope = scope
        self.filled = filled
        self.start = time.monotonic()
        self.first = True
        self.calls: dict[str, tuple[float, tuple[str, ...]]] = {}  # running: id → start, keys
        self.stop = host.subscribe(self)

    def __call__(self, event: BaseModel) -> None:
        waits = self.fillers.waits
        if isinstance(event, MessageUpdate) and not event.text_delta:
            return
        if self.first and isinstance(event, MessageUpdate | ToolExecutionStart):
            waits.record(self.fillers.answer_key, time.monotonic() - self.start)
            self.first = False
        if isinstance(event, ToolExecutionStart):
            keys = tool_keys(event.tool_name, event.args)
            self.calls[event.tool_call_id] = (time.monotonic(), keys)
            if not self.filled:
                self._tool_filler(event, keys)
        elif isinstance(event, ToolExecutionEnd):
            running = self.calls.pop(event.tool_call_id, None)
            if running is not None and ran_alone(event.decision):
                for key in running[1]:
                    waits.record(key, time.monotonic() - running[0])
        elif isinstance(event, AgentEnd | AgentError):  # the turn is over (an answer, an error)
            self.stop()

    def _tool_filler(self, event: ToolExecutionStart, keys: tuple[str, ...]) -> None:
        waits = self.fillers.waits
        line = choose_tool_filler(
            event.tool_name,
            event.args,
            waits.predicted(*keys),
            self.fillers.after_sec,
            waits.last_three(self.host.id),
            self.scope.language,
        )
        if line is None:
            return
        self.filled = True
        waits.said(self.host.id, line)
        message = ProactiveMessage(
            text=line, kind="filler", message_id=f"filler:{self.host.id}:{self.scope.turn}"
        )
        call = event.tool_call_id

        def send() -> None:  # after every front end has seen the call start
            if call in self.calls:
                self.host.emit(message)

        asyncio.get_running_loop().call_soon(send)


def ran_alone(decision: dict[str, Any] | None) -> bool:
    """A call whose run time is the tool's own: it ran, and no person was waited for."""
    if decision is None:
        return True
    reason = str(decision.get("reason", ""))
    return decision.get("outcome") == "allow" and not reason.startswith("user_")


def recent_lines(messages: list[Message]) -> str:
    """The last few turns as plain lines (tool traffic left out)."""
    lines: list[str] = []
    for message in messages[-_RECENT_MESSAGES:]:
        if isinstance(message, UserMessage):
            lines.append(f"user: {message.content[:_RECENT_CHARS]}")
        elif isinstance(message, AssistantMessage) and message.content:
            lines.append(f"assistant: {message.content[:_RECENT_CHARS]}")
    return "\n".join(lines)
