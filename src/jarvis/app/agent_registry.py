"""AgentRegistry: every top-level agent — `main` (JARVIS) and one per `~/.jarvis/team/<id>.yaml` —
with its AgentProfile and SessionBuilder (seed 004 "여러 화면, 한 배선"). Every front end asks it
for builders and sessions; it keeps the agent tools (`agent_<name>`, `orchestrate`, `ask_agent`)
in the tool registry in step with the definition files, which reload like tools."""

from __future__ import annotations

import dataclasses

from jarvis.agent_layer.loop import run_agent_loop
from jarvis.agent_layer.sessions import SessionInfo, is_background
from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.app.infra import AppAssembly
from jarvis.app.profile import AgentProfile, Boundaries
from jarvis.app.session_builder import SessionBuilder
from jarvis.common.i18n import Language
from jarvis.core.agents.definitions import MAIN_AGENT, TeamAgent
from jarvis.core.agents.runtime import OrchestrationLimits, SubAgentHost, nested_sink
from jarvis.core.agents.tools import AskAgentTool, OrchestrateTool, SubAgentTool
from jarvis.core.session import AgentSession
from jarvis.core.tools.base import Tool
from jarvis.memory.service import PERSON_WORDS_HEADER, MemoryScope
from jarvis.model_layer.messages import UserMessage
from jarvis.model_layer.provider import Provider


def team_profile(agent: TeamAgent) -> AgentProfile:
    spec = agent.spec
    return AgentProfile(
        agent_id=agent.agent_id,
        name=spec.name,
        model=agent.model,
        system_prompt=spec.system_prompt,
        tools=tuple(spec.tools) if spec.tools is not None else None,
        boundaries=Boundaries(ask=tuple(spec.boundaries.ask), never=tuple(spec.boundaries.never)),
        own_tools=tuple(spec.own_tools),
        memory_agent=MAIN_AGENT if spec.memory.scope == "main" else None,
        thought_engine=spec.thought_engine,
        proactive=spec.proactive,
    )


class AgentRegistry:
    def __init__(
        self,
        app: AppAssembly,
        main: AgentProfile | None = None,
        limits: OrchestrationLimits | None = None,
    ) -> None:
        self.app = app
        self.main = self._builder(main or AgentProfile())
        self._builders: dict[str, SessionBuilder] = {MAIN_AGENT: self.main}
        self.host = SubAgentHost(
            subagents=lambda: app.definitions.subagents,
            tools=app.tools,
            workspace=app.settings.workspace_dir,
            gate=app.gate,
            model_for=self._model_for,
            visible_for=self._visible_for,
            ask_for=lambda agent_id: (self.get(agent_id) or self.main).profile.boundaries.ask,
            memory=app.memory,
            clock=app.clock,
            language=app.settings.language,
            limits=limits or app.settings.agents,
        )
        app.definitions.listeners.append(self.refresh)
        self.refresh()

    def _builder(self, profile: AgentProfile) -> SessionBuilder:
        builder = SessionBuilder(self.app, profile)
        builder.foreign_tools = lambda: self._owned_by_others(builder.agent_id)
        return builder

    # -- the agents

    def ids(self) -> list[str]:
        return list(self._builders)

    def builders(self) -> dict[str, SessionBuilder]:
        """The live table (refresh edits it in place), for services that look agents up later."""
        return self._builders

    def agent_ids(self) -> list[str]:
        return self.ids()

    def get(self, agent_id: str | None) -> SessionBuilder | None:
        return self._builders.get(agent_id or MAIN_AGENT)

    def profiles(self) -> list[AgentProfile]:
        return [builder.profile for builder in self._builders.values()]

    def _owned_by_others(self, agent_id: str) -> frozenset[str]:
        return frozenset(
            name
            for other, builder in self._builders.items()
            if other != agent_id
            for name in builder.profile.own_tools
        )

    def _model_for(self, agent_id: str) -> tuple[Provider, str]:
        setup = (self.get(agent_id) or self.main).setup()
        return setup.provider, setup.model

    def _visible_for(self, agent_id: str) -> set[str] | None:
        return (self.get(agent_id) or self.main).visible_tools()

    def refresh(self) -> None:
        """Follow the definition files: team agents added, changed or removed, agent tools."""
        team = self.app.definitions.team
        for agent_id in [a for a in self._builders if a != MAIN_AGENT and a not in team]:
            del self._builders[agent_id]  # its live sessions finish on the setup they have
        for agent_id, agent in team.items():
            profile = team_profile(agent)
            known = self._builders.get(agent_id)
            if known is None:
                self._builders[agent_id] = self._builder(profile)
            else:
                known.update_profile(profile)
        self.app.tools.replace_layer("agent", self._agent_tools())

    def _agent_tools(self) -> list[Tool]:
        specs = list(self.app.definitions.subagents.values())
        tools: list[Tool] = [SubAgentTool(spec, self.host) for spec in specs]
        if specs:
            tools.append(OrchestrateTool(self.host))
        if len(self._builders) >= 2:
            limit = self.host.limits.max_depth
            tools.append(AskAgentTool(self, self.app.settings.language, limit))
        return tools

    # -- sessions of any agent

    async def open(self, session_id: str, lang: Language | None = None) -> AgentSession | None:
        for builder in self._builders.values():
            if session_id in builder.live:
                return await builder.open(session_id, lang)  # in the language asked for
        info = await self.app.session_store.get_info(session_id)
        owner = self.get(info.agent_id) if info is not None else None
        return await owner.open(session_id, lang) if owner is not None else None

    async def list(self, *, user_id: str | None = None) -> list[SessionInfo]:
        """The person's conversations, newest first (background work's sessions left out)."""
        found = await self.app.session_store.list_sessions(user_id=user_id)
        return [info for info in found if not is_background(info.id)]

    # -- ask_agent

    async def ask(self, agent_id: str, question: str, ctx: ToolCallContext) -> ToolResult:
        """The asked agent answers with its own prompt, tools and rules; the approvals it needs
        go to the asking session's windows, labelled with the whole agent path. Its remembered
        rules approve a call only when the asking agents hold one too (`consent_chain`)."""
        builder = self.get(agent_id)
        assert builder is not None, "AskAgentTool checks the id first"
        setup = builder.setup()
        tools = setup.tools()
        path = (*ctx.path, agent_id)
        # The asked agent remembers with its own memory, as in its own sessions.
        scope = MemoryScope(setup.memory_owner, ctx.user_id, ctx.session_id, ctx.turn)
        recalled = await setup.memory.observe(scope, question) if setup.memory else ""
        asked = f"{recalled}\n\n{PERSON_WORDS_HEADER}\n{question}" if recalled else question
        result = await run_agent_loop(
            provider=setup.provider,
            model=setup.model,
            system_prompt=setup.system_prompt(tools),
            history=[UserMessage(content=asked)],
            tools=tools,
            emit=nested_sink(ctx.emit, path),
            tool_context=dataclasses.replace(
                ctx, agent_id=agent_id, agent_path=path, asked_by=(*ctx.asked_by, ctx.agent_id)
            ),
            config=setup.loop_config,
            agent_name=setup.agent_name,
        )
        failed = result.error is not None or result.ended_by not in ("answer", "final_tool")
        return ToolResult(content=result.final_text or result.error or "", is_error=failed)
