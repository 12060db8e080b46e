"""SessionBuilder: makes (and keeps) the live sessions of one agent."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from zoneinfo import ZoneInfo

from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.openloop.judge import AgendaJudge
from jarvis.agent_layer.sessions import BACKGROUND_PREFIX, SessionInfo, is_background
from jarvis.agent_layer.tools import LoopTools
from jarvis.app.infra import AppAssembly
from jarvis.app.profile import AgentProfile
from jarvis.app.thinking_setup import build_thinking, user_model_store
from jarvis.common.clock import new_id
from jarvis.common.i18n import Language, t
from jarvis.core.agenda import AgendaJob
from jarvis.core.mcp.prompting import server_instructions
from jarvis.core.memory_tools import EVERY_AGENT_TOOLS
from jarvis.core.memory_tools.corrections import CorrectionJob
from jarvis.core.memory_tools.semantic_job import SemanticMemoryJob
from jarvis.core.procedures.idle import IdleLearningJob
from jarvis.core.procedures.tools import ProcedureTools
from jarvis.core.session import AgentSession, SessionSetup, TurnJob
from jarvis.core.thinking import WaitTracker
from jarvis.core.tools.base import Tool
from jarvis.core.tools.executor import GatedTools, ToolGate
from jarvis.core.user_model.job import UserModelJob
from jarvis.model_layer.config import ModelSettings, StreamOptions

_REPLY_RESERVE = 1024  # tokens kept free for the answer when the model's max_tokens is unset


class SessionBuilder:
    def __init__(self, app: AppAssembly, profile: AgentProfile | None = None) -> None:
        self.app = app
        self.profile = profile or AgentProfile()
        self._live: dict[str, AgentSession] = {}
        self._setups: dict[Language, SessionSetup] = {}
        self.waits = WaitTracker()  # the agent's model and tool waits, for fillers
        # Other agents' own tools, which this agent never sees (the registry sets it).
        self.foreign_tools: Callable[[], frozenset[str]] = frozenset
        self._last_tools: tuple[tuple[object, ...], LoopTools] | None = None

    def update_profile(self, profile: AgentProfile) -> None:
        """A reloaded team file: live sessions take the new setup from their next turn."""
        if profile == self.profile:
            return
        self.profile = profile
        self._setups.clear()
        for session in self._live.values():
            session.setup = self.setup(session.setup.language)

    @property
    def live(self) -> dict[str, AgentSession]:
        return self._live

    @property
    def agent_id(self) -> str:
        return self.profile.agent_id

    def setup(self, lang: Language | None = None) -> SessionSetup:
        """The agent's setup in `lang` (the person's language; the settings' by default)."""
        lang = lang or self.app.settings.language
        if lang not in self._setups:
            self._setups[lang] = self._build_setup(lang)
        return self._setups[lang]

    def _build_setup(self, lang: Language) -> SessionSetup:
        settings = self.app.settings
        model = self.profile.model or settings.model
        return SessionSetup(
            agent_id=self.profile.agent_id,
            agent_name=self.profile.name,
            provider=self.app.provider_for(model),
            model=model.model,
            person_turn=self.app.lane_for(model).holding,
            system_prompt=lambda tools: self._system_prompt(tools, lang),
            tools=self._tools,
            store=self.app.session_store,
            memory=self.app.memory,
            loop_config=AgentLoopConfig(
                max_turns=settings.loop.max_turns,
                overflow_resume=settings.loop.overflow_resume,
                language=lang,
                options=StreamOptions(language=lang),  # a failed call's line, in the person's
                reply_reserve=min(model.max_tokens or _REPLY_RESERVE, _REPLY_RESERVE * 4),
                deadline_sec=settings.loop.turn_deadline_sec,
            ),
            context_window=lambda: self.app.context_window(model),
            input_max_length=settings.security.input_max_length,
            clock=self.app.clock,
            language=lang,
            turn_jobs=self._turn_jobs(),
            plugins=self.app.plugins,
            skills=self.app.skills,
            expand_input=self.app.mcp.expand_input,
            memory_agent_id=self.profile.memory_agent,
            thinking=build_thinking(self.app, self.profile, self.waits),
        )

    def _turn_jobs(self) -> list[TurnJob]:
        jobs: list[TurnJob] = []
        if self.app.settings.openloop.enabled:
            jobs.append(self._agenda_job())
        jobs.append(CorrectionJob(self.app.memory))
        memory = self.app.settings.memory
        if memory.enabled and memory.semantic:
            jobs.append(SemanticMemoryJob(self.app.memory))
        if self.app.settings.user_model.enabled and self.app.settings.user_model.extract:
            infer = self.app.settings.user_model.infer
            jobs.append(UserModelJob(user_model_store(self.app), infer=infer))
        if self.app.learning is not None:
            jobs.append(IdleLearningJob(self.app.learning.idle))
        return jobs

    def _agenda_job(self) -> AgendaJob:
        settings = self.app.settings
        model = settings.openloop.model or self.profile.model or settings.model
        judge = AgendaJudge(
            self.app.background_provider_for(model),
            model.model,
            settings.language,
            ZoneInfo(settings.timezone),
        )
        job = AgendaJob(self.app.openloops, judge)
        job.after_reply = _judge_after_reply(settings.openloop.judge_timing, model)
        job.every_turn = settings.openloop.judge_every_turn
        return job

    def _tools(self) -> LoopTools:
        """The turn's tool surface; the last one again while the registry, the visible set
        and the boundaries are the same (it reads procedures and specs live itself)."""
        never = frozenset(self.profile.boundaries.never)  # invisible everywhere (seed 000)
        visible = self.visible_tools()
        app = self.app
        where = app.settings.workspace or Path.cwd()  # `workspace_dir` resolves: a path walk
        key = (app.tools, app.tools.version, visible, never, app.gate, where, app.learning)
        if self._last_tools is not None and self._last_tools[0] == key:
            return self._last_tools[1]
        workspace = app.settings.workspace_dir
        tools: LoopTools = GatedTools(app.tools, workspace, app.gate, visible, hidden=never)
        if app.learning is not None:
            # Learned procedures are this agent's only; their steps run through the gate.
            tools = ProcedureTools(tools, app.learning.library, self.agent_id)
        self._last_tools = (key, tools)
        return tools

    def visible_tools(self) -> set[str] | None:
        """Re-read every turn: the profile's list (None: everything registered) plus the
        dynamic agent tools, minus `never` and the tools other agents own."""
        hidden = set(self.profile.boundaries.never) | (
            self.foreign_tools() - set(self.profile.own_tools)
        )
        listed = self.profile.tools
        if listed is None and not hidden:
            return None
        names = self.app.tools.names()
        if listed is not None:
            wanted = set(listed) | set(self.profile.own_tools) | EVERY_AGENT_TOOLS
            names = [n for n in names if n in wanted or _is_agent_tool(self.app.tools.get(n))]
        return {name for name in names if name not in hidden}

    def unattended_setup(self, gate: ToolGate) -> SessionSetup:
        """The setup of a turn nobody watches (schedule, goal): `ask` and `never` tools are
        gone, calls go through `gate` (no human to ask), and no AGENDA judge runs."""
        bounds = self.profile.boundaries
        hidden = frozenset(bounds.never) | frozenset(bounds.ask)
        workspace = self.app.settings.workspace_dir

        def tools() -> LoopTools:
            # The agent's own tool list (and other agents' own tools) bind these turns too;
            # `ask` tools leave on top of `never`.
            return GatedTools(self.app.tools, workspace, gate, self.visible_tools(), hidden=hidden)

        setup = self.setup()
        # no learner hook: a run's prompt is not the person replying or asking to stop
        thinking = setup.thinking.unattended() if setup.thinking is not None else None
        return dataclasses.replace(
            setup, tools=tools, turn_jobs=[], thinking=thinking, attended=False
        )

    async def create_unattended(
        self, gate: ToolGate, *, user_id: str, title: str, background: bool = False
    ) -> AgentSession:
        """A new session of the owner's, for one unattended run; it opens like any other.
        `background` (a Focus task's work): not listed, its turns not remembered as episodes."""
        now = self.app.clock.now_ms()
        info = SessionInfo(
            id=(BACKGROUND_PREFIX if background else "") + new_id()[:16],
            agent_id=self.agent_id,
            user_id=user_id,
            created_ms=now,
            updated_ms=now,
            title=title,
        )
        await self.app.session_store.create(info)
        return AgentSession(self.unattended_setup(gate), info)

    def _system_prompt(self, tools: LoopTools, lang: Language) -> str:
        prompt = self.profile.system_prompt or t("prompt.default_system", lang)
        names = [spec.name for spec in tools.specs()]
        if self.app.sandbox.any_requires_approval(names):
            # Seed 000: without this, models answer "run it yourself" instead of calling tools.
            prompt = f"{prompt}\n\n{t('prompt.approval_rule', lang)}"
        return prompt + server_instructions(self.app.mcp.instructions())

    async def create(self, *, user_id: str = "local", lang: Language | None = None) -> AgentSession:
        now = self.app.clock.now_ms()
        info = SessionInfo(
            id=new_id()[:16],
            agent_id=self.agent_id,
            user_id=user_id,
            created_ms=now,
            updated_ms=now,
        )
        await self.app.session_store.create(info)
        return self._keep(AgentSession(self.setup(lang), info))

    async def open(self, session_id: str, lang: Language | None = None) -> AgentSession | None:
        """The live session with this id, resuming it from the store if needed."""
        live = self._live.get(session_id)
        if live is not None:
            return self._speaking(live, lang)
        info = await self.app.session_store.get_info(session_id)
        if info is None or info.agent_id != self.agent_id:
            return None
        return self._keep(AgentSession(self.setup(lang), info))

    async def list(self, *, user_id: str | None = None) -> list[SessionInfo]:
        found = await self.app.session_store.list_sessions(agent_id=self.agent_id, user_id=user_id)
        return [info for info in found if not is_background(info.id)]

    def forget(self, session_id: str) -> None:
        """A deleted session is not resumed from memory."""
        self._live.pop(session_id, None)

    def _speaking(self, session: AgentSession, lang: Language | None) -> AgentSession:
        """A live session speaks the language of the page that opens it last: its next lines
        (errors, commands, the model's failures) follow that page, not the server's setting.
        A running turn finishes in its own; a setup made for one run is left alone."""
        current = session.setup.language
        if lang is None or lang == current or session.running:
            return session
        if session.setup is self._setups.get(current):
            session.setup = self.setup(lang)
        return session

    def _keep(self, session: AgentSession) -> AgentSession:
        self._live[session.id] = session
        return session


def _is_agent_tool(tool: Tool | None) -> bool:
    """ask_agent, orchestrate and agent_<name> come with the team, not with a tool list."""
    return tool is not None and tool.source.kind == "agent"


def _judge_after_reply(timing: str, model: ModelSettings) -> bool:
    """`auto`: after the reply when the judge's model runs on a local server (one model slot
    is the common case there), beside it for hosted APIs and the scripted model."""
    if timing != "auto":
        return timing == "after_reply"
    return model.runs_locally()
