"""SessionBuilder: makes (and keeps) the live sessions of one agent."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit
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
from jarvis.core.mcp.prompting import server_instructions
from jarvis.core.session import AgentSession, SessionSetup
from jarvis.core.tools.executor import GatedTools
from jarvis.model_layer.config import ModelSettings

_REPLY_RESERVE = 1024  # tokens kept free for the answer when the model's max_tokens is unset


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
                reply_reserve=min(model.max_tokens or _REPLY_RESERVE, _REPLY_RESERVE * 4),
                deadline_sec=settings.loop.turn_deadline_sec,
            ),
            context_window=lambda: self.app.context_window(model),
            input_max_length=settings.security.input_max_length,
            clock=self.app.clock,
            language=lang,
            turn_jobs=[self._agenda_job()] if settings.openloop.enabled else [],
            plugins=self.app.plugins,
            skills=self.app.skills,
            expand_input=self.app.mcp.expand_input,
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
        job = AgendaJob(self.app.openloops, judge)
        job.after_reply = _judge_after_reply(settings.openloop.judge_timing, model)
        return job

    def _tools(self) -> LoopTools:
        return GatedTools(self.app.tools, self.app.settings.workspace_dir, self.app.gate)

    def _system_prompt(self, tools: LoopTools) -> str:
        lang = self.app.settings.language
        prompt = self.profile.system_prompt or t("prompt.default_system", lang)
        names = [spec.name for spec in tools.specs()]
        if self.app.sandbox.any_requires_approval(names):
            # Seed 000: without this, models answer "run it yourself" instead of calling tools.
            prompt = f"{prompt}\n\n{t('prompt.approval_rule', lang)}"
        return prompt + server_instructions(self.app.mcp.instructions())

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


def _judge_after_reply(timing: str, model: ModelSettings) -> bool:
    """`auto`: after the reply when the judge's model runs on a local server (one model slot
    is the common case there), beside it for hosted APIs and the scripted model."""
    if timing != "auto":
        return timing == "after_reply"
    if model.provider != "openai":
        return False
    host = urlsplit(model.base_url).hostname or ""
    if host in ("localhost", "host.docker.internal") or host.endswith(".local"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local
