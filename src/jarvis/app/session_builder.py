"""SessionBuilder: makes (and keeps) the live sessions of one agent."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.openloop.judge import AgendaJudge
from jarvis.agent_layer.sessions import SessionInfo
from jarvis.agent_layer.tools import LoopTools
from jarvis.app.infra import AppAssembly
from jarvis.app.profile import AgentProfile
from jarvis.common.clock import new_id
from jarvis.common.i18n import t
from jarvis.core.agenda import AgendaJob
from jarvis.core.session import AgentSession, SessionSetup
from jarvis.core.tools.executor import GatedTools


class SessionBuilder:
    def __init__(self, app: AppAssembly, profile: AgentProfile | None = None) -> None:
        self.app = app
        self.profile = profile or AgentProfile()
        self._live: dict[str, AgentSession] = {}
        self._setup: SessionSetup | None = None

    @property
    def agent_id(self) -> str:
        return self.profile.agent_id

    def setup(self) -> SessionSetup:
        if self._setup is None:
            self._setup = self._build_setup()
        return self._setup

    def _build_setup(self) -> SessionSetup:
        settings = self.app.settings
        model = self.profile.model or settings.model
        lang = settings.language
        return SessionSetup(
            agent_id=self.profile.agent_id,
            agent_name=self.profile.name,
            provider=self.app.provider_for(model),
            model=model.model,
            system_prompt=self._system_prompt,
            tools=self._tools,
            store=self.app.session_store,
            memory=self.app.memory,
            loop_config=AgentLoopConfig(
                max_turns=settings.loop.max_turns,
                overflow_resume=settings.loop.overflow_resume,
                language=lang,
            ),
            input_max_length=settings.security.input_max_length,
            clock=self.app.clock,
            language=lang,
            turn_jobs=[self._agenda_job()] if settings.openloop.enabled else [],
            plugins=self.app.plugins,
            skills=self.app.skills,
        )

    def _agenda_job(self) -> AgendaJob:
        settings = self.app.settings
        model = settings.openloop.model or self.profile.model or settings.model
        judge = AgendaJudge(
            self.app.provider_for(model),
            model.model,
            settings.language,
            ZoneInfo(settings.timezone),
        )
        return AgendaJob(self.app.openloops, judge)

    def _tools(self) -> LoopTools:
        return GatedTools(self.app.tools, self.app.settings.workspace_dir, self.app.gate)

    def _system_prompt(self, tools: LoopTools) -> str:
        lang = self.app.settings.language
        prompt = self.profile.system_prompt or t("prompt.default_system", lang)
        names = [spec.name for spec in tools.specs()]
        if self.app.sandbox.any_requires_approval(names):
            # Seed 000: without this, models answer "run it yourself" instead of calling tools.
            prompt = f"{prompt}\n\n{t('prompt.approval_rule', lang)}"
        return prompt

    async def create(self, *, user_id: str = "local") -> AgentSession:
        now = self.app.clock.now_ms()
        info = SessionInfo(
            id=new_id()[:16],
            agent_id=self.agent_id,
            user_id=user_id,
            created_ms=now,
            updated_ms=now,
        )
        await self.app.session_store.create(info)
        return self._keep(AgentSession(self.setup(), info))

    async def open(self, session_id: str) -> AgentSession | None:
        """The live session with this id, resuming it from the store if needed."""
        live = self._live.get(session_id)
        if live is not None:
            return live
        info = await self.app.session_store.get_info(session_id)
        if info is None or info.agent_id != self.agent_id:
            return None
        return self._keep(AgentSession(self.setup(), info))

    async def list(self, *, user_id: str | None = None) -> list[SessionInfo]:
        return await self.app.session_store.list_sessions(agent_id=self.agent_id, user_id=user_id)

    def _keep(self, session: AgentSession) -> AgentSession:
        self._live[session.id] = session
        return session
