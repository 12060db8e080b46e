"""AgentSession: one conversation. `prompt()` runs one turn through the fixed pipeline.

validation → store the prompt → memory observe → loop → store the answer → report the end →
episode; background jobs (the AGENDA judge) run beside the reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from jarvis.agent_layer.events import AgentEnd, AgentError, EventSink
from jarvis.agent_layer.loop import AgentLoopConfig, LoopResult, run_agent_loop
from jarvis.agent_layer.sessions.base import SessionEntry, SessionInfo, SessionStore, is_background
from jarvis.agent_layer.tools import LoopTools, ToolCallContext
from jarvis.common.clock import Clock
from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger
from jarvis.common.storage_errors import describe_storage_error
from jarvis.core.extensions import SkillRegistry
from jarvis.core.history_window import HistoryWindow
from jarvis.core.plugins import PluginHost
from jarvis.core.recall import as_typed, recall_into_turn
from jarvis.core.security.validation import validate_input
from jarvis.core.thinking import ThinkingPlan, TurnScope, TurnThinking
from jarvis.core.turn_ending import TurnEnding
from jarvis.memory.config import MemorySettings
from jarvis.memory.episodes import make_episode
from jarvis.memory.service import PERSON_WORDS_HEADER, MemoryScope, MemoryService
from jarvis.model_layer.messages import AssistantMessage, Message, UserMessage
from jarvis.model_layer.provider import Provider

_log = get_logger("jarvis.session")

# Background jobs start with the turn and run beside the reply, never delaying it (the AGENDA
# judge is one): they get the session and the validated user text.
TurnJob = Callable[["AgentSession", str], Coroutine[Any, Any, None]]


@dataclass
class SessionSetup:
    """Everything a session needs, built once per agent by the app layer."""

    agent_id: str
    agent_name: str
    provider: Provider
    model: str
    system_prompt: Callable[[LoopTools], str]
    tools: Callable[[], LoopTools]
    store: SessionStore
    memory: MemoryService | None
    loop_config: AgentLoopConfig
    input_max_length: int
    clock: Clock
    language: Language = "ko"
    turn_jobs: list[TurnJob] = field(default_factory=list)
    plugins: PluginHost = field(default_factory=PluginHost)
    skills: SkillRegistry | None = None
    # Rewrites the typed text before skills see it (MCP `/server:prompt`, `@server:uri`).
    expand_input: Callable[[str], Awaitable[str]] | None = None
    # The model's context size, asked when a turn starts (None: unknown).
    context_window: Callable[[], Awaitable[int | None]] | None = None
    # Whose long-term memory the session reads and writes (None: the agent's own).
    memory_agent_id: str | None = None
    # The thinking step between the security pipeline and the loop (router, inner thought).
    thinking: TurnThinking | None = None
    # Held for the whole turn: the model server's lane (`model_layer/lanes.py`), so background
    # calls there wait until the person's turn is over. None: nothing to hold.
    person_turn: Callable[[], contextlib.AbstractContextManager[None]] | None = None
    # A person can answer approvals (False: schedules, goals, Focus steps — nobody to ask).
    attended: bool = True

    @property
    def memory_owner(self) -> str:
        return self.memory_agent_id or self.agent_id


@dataclass
class TurnOutcome:
    session_id: str
    turn: int
    user_text: str
    answer: str
    ended_by: str
    result: LoopResult | None = None
    error: str | None = None


class ValidationFailed(BaseModel):
    """Sent to the front end when the input was refused (nothing ran, nothing recorded)."""

    type: str = "validation_error"
    message: str
    code: str


class AgentSession:
    def __init__(self, setup: SessionSetup, info: SessionInfo) -> None:
        self.setup = setup
        self.info = info
        self._subscribers: list[EventSink] = []
        self._lock = asyncio.Lock()
        self._aborts: set[asyncio.Event] = set()  # the running turn's and queued turns'
        self._background: set[asyncio.Task[None]] = set()
        self._window = HistoryWindow()  # the earlier turns shown (`core/history_window.py`)

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def running(self) -> bool:
        return self._lock.locked()

    def subscribe(self, sink: EventSink) -> Callable[[], None]:
        self._subscribers.append(sink)
        return lambda: self._subscribers.remove(sink) if sink in self._subscribers else None

    def emit(self, event: BaseModel) -> None:
        for sink in list(self._subscribers):
            try:
                sink(event)
            except Exception:  # one broken front end must not stop the turn
                _log.exception("event subscriber failed")

    def abort(self) -> bool:
        """Stop the running turn (and its pending approvals) and every queued one; False when
        nothing runs or waits."""
        if not self._aborts:
            return False
        for abort in self._aborts:
            abort.set()
        return True

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[asyncio.Event]:
        """Run work that is not a model turn (`/orchestrate`) like one: after the running turn,
        stopped by `abort()`; yields the work's abort signal."""
        abort = asyncio.Event()
        self._aborts.add(abort)
        try:
            async with self._lock:
                yield abort
        finally:
            self._aborts.discard(abort)

    async def prompt(self, text: str) -> TurnOutcome:
        abort = asyncio.Event()
        self._aborts.add(abort)  # a Stop while the turn still waits for the lock cancels it
        try:
            async with self._lock:
                if abort.is_set():
                    self.emit(AgentEnd(ended_by="aborted"))
                    turn = self.info.turns + 1
                    return TurnOutcome(self.id, turn, text, "", "aborted")
                return await self._guarded_turn(text, abort)
        finally:
            self._aborts.discard(abort)

    async def _guarded_turn(self, text: str, abort: asyncio.Event) -> TurnOutcome:
        """Every started turn ends with exactly one `agent_end` or `agent_error`, whatever
        fails: a failure the turn did not report itself becomes the `agent_error`."""
        ending = TurnEnding(self.emit)
        hold = self.setup.person_turn or contextlib.nullcontext
        try:
            with hold():
                return await self._turn(text, abort, ending)
        except Exception as exc:
            _log.exception("turn failed")
            cause = describe_storage_error(exc)
            ending.fail(AgentError(message=t("turn.failed", self.setup.language, cause=cause)))
            return TurnOutcome(self.id, self.info.turns, text, "", "error", error=cause)
        finally:
            ending.close()

    async def _turn(self, text: str, abort: asyncio.Event, ending: TurnEnding) -> TurnOutcome:
        setup = self.setup
        turn = self.info.turns + 1
        if setup.expand_input is not None:
            text = await setup.expand_input(text)
        expanded = setup.skills.expand(text) if setup.skills and text.startswith("/") else None
        text = expanded or text  # `/name args` becomes the skill's prompt
        checked = validate_input(text, max_length=setup.input_max_length, lang=setup.language)
        if not checked.ok:
            ending.settled = True  # nothing started: the validation event is the answer
            self.emit(ValidationFailed(message=checked.error, code=checked.code))
            return TurnOutcome(self.id, turn, text, checked.error, "invalid", error=checked.error)
        user = UserMessage(content=checked.text)
        # The prompt is stored first, so a turn killed half-way still keeps what was asked.
        failure = await self._store(turn, [user])
        if failure is not None:
            ending.fail(
                AgentError(
                    message=t("turn.prompt_not_saved", setup.language, cause=failure),
                    kind="storage",
                )
            )
            return TurnOutcome(self.id, turn, checked.text, "", "error", error=failure)
        later = [job for job in setup.turn_jobs if getattr(job, "after_reply", False)]
        for job in setup.turn_jobs:
            if job not in later:
                self._spawn(job(self, checked.text))
        await setup.plugins.before_agent_start(
            checked.text, {"session_id": self.id, "agent_id": setup.agent_id, "turn": turn}
        )
        settings = setup.memory.settings if setup.memory else MemorySettings()
        shown = await self._window.recent(setup.store, self.id, settings, turn, setup.language)
        plan: ThinkingPlan | None = None  # the thinking step: router, inner thought
        if setup.thinking is not None:
            scope = TurnScope(setup.agent_id, self.info.user_id, setup.language, turn)
            plan = await setup.thinking.plan(checked.text, shown.conversation, scope, self, abort)
        tools = setup.tools()
        system_prompt = setup.system_prompt(tools)
        recalled = await self._recalled(checked.text, turn)
        note = plan.note(setup.language) if plan else ""  # this turn only, never stored
        self._window.sent(turn, shown, recalled)
        recalled = "\n\n".join(part for part in (shown.with_this_turn, note, recalled) if part)
        ctx = ToolCallContext(
            session_id=self.id,
            agent_id=setup.agent_id,
            turn=turn,
            abort=abort,
            user_id=self.info.user_id,
            emit=self.emit,
            language=setup.language,
        )
        config = await self._loop_config()
        if plan is not None:  # with a person to ask, a thought may open the turn with a call
            askable = [spec.name for spec in tools.specs()] if setup.attended else []
            config = plan.loop_config(config, askable, checked.text)
        result = await run_agent_loop(
            provider=setup.provider,
            model=setup.model,
            system_prompt=system_prompt,
            history=[*shown.messages, _with_memory(user, recalled)],
            tools=tools,
            emit=ending.hold,
            tool_context=ctx,
            config=config,
            agent_name=setup.agent_name,
            transform_context=setup.plugins.transform_context,
        )
        await self._replace_answer(result)
        # Stored before it is reported: the held agent_end goes out only after the write.
        failure = await self._store(turn, result.messages)
        if failure is not None:
            ending.fail(
                AgentError(
                    message=t("turn.answer_not_saved", setup.language, cause=failure),
                    kind="storage",
                )
            )
        else:
            ending.release()
        for job in later:  # after the reply: a one-slot model server answers the person first
            self._spawn(job(self, checked.text))
        outcome = TurnOutcome(
            self.id,
            turn,
            checked.text,
            result.final_text,
            result.ended_by,
            result=result,
            error=result.error or failure,
        )
        await self._episode(outcome, result)
        return outcome

    async def _loop_config(self) -> AgentLoopConfig:
        config = self.setup.loop_config
        if self.setup.context_window is None or config.context_window is not None:
            return config
        return dataclasses.replace(config, context_window=await self.setup.context_window())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._job_done)

    def _job_done(self, task: asyncio.Task[None]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _log.error("background job failed", exc_info=task.exception())

    async def settle(self) -> None:
        """Wait for this session's background jobs (tests, shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def _replace_answer(self, result: LoopResult) -> None:
        """Plugins' on_message_end may replace the final answer before it is recorded."""
        last = result.messages[-1] if result.messages else None
        if not isinstance(last, AssistantMessage) or not last.content:
            return
        replaced = await self.setup.plugins.on_message_end(last.content)
        if replaced != last.content:
            result.messages[-1] = last.model_copy(update={"content": replaced})
            result.final_text = replaced

    async def _recalled(self, query: str, turn: int) -> str:
        """What memory recalls for this turn. It goes with this turn's message, not into the
        system prompt: the prompt and the earlier turns stay a stable prefix, which a model
        server's prompt cache can reuse (a changing system prompt made it re-read everything)."""
        memory = self.setup.memory
        if memory is None:
            return ""
        scope = MemoryScope(self.setup.memory_owner, self.info.user_id, self.id, turn)
        return await recall_into_turn(memory, scope, query, self.emit, self.setup.language)

    async def _store(self, turn: int, messages: list[Message]) -> str | None:
        """Append this turn's messages; the cause, in one line, when the write failed."""
        if not messages:
            return None
        now = self.setup.clock.now_ms()
        entries = [SessionEntry(turn=turn, ts_ms=now, message=m) for m in messages]
        try:
            await self.setup.store.append(self.id, entries)
        except Exception as exc:
            _log.error("session %s turn %d not stored: %s", self.id, turn, exc)
            return describe_storage_error(exc)
        self.info.turns = turn
        self.info.updated_ms = now
        first = messages[0]
        if not self.info.title and isinstance(first, UserMessage):
            self.info.title = first.content[:60]
        return None

    async def _episode(self, outcome: TurnOutcome, result: LoopResult) -> None:
        memory = self.setup.memory
        if memory is None or is_background(self.id):  # background work is not the person's
            return
        calls = [
            (run.call.name, run.call.arguments)
            for run in result.tool_runs
            if not run.result.is_error
        ]
        episode = make_episode(
            agent_id=self.setup.memory_owner,
            user_id=self.info.user_id,
            session_id=self.id,
            turn=outcome.turn,
            ts_ms=self.setup.clock.now_ms(),
            utterance=as_typed(outcome.user_text),  # memory keeps the words as typed
            answer=outcome.answer,
            successful_calls=calls,
            outcome=_episode_outcome(result),
            overflow=result.overflows > 0,
        )
        try:
            await memory.record_episode(episode)
        except Exception as exc:  # the turn is stored; a lost episode costs only learning
            _log.error("episode of session %s turn %d not stored: %s", self.id, outcome.turn, exc)


def _episode_outcome(result: LoopResult) -> str:
    """success / failure / denied / aborted: what procedure learning counts."""
    if result.ended_by in ("denied", "timeout"):
        return "denied"
    if result.ended_by == "aborted":
        return "aborted"
    failed = result.error is not None or any(run.result.is_error for run in result.tool_runs)
    return "failure" if failed else "success"


def _with_memory(user: UserMessage, recalled: str) -> UserMessage:
    """The message the model sees this turn (what is stored stays the person's words)."""
    if not recalled:
        return user
    # The header says where recalled memory ends and the person's own words begin, so neither
    # the model nor the demo takes a remembered command for this turn's request.
    return UserMessage(content=f"{recalled}\n\n{PERSON_WORDS_HEADER}\n{user.content}")
