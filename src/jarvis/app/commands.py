"""The slash command table of this process: the fixed commands bound to their handlers, then the
sources whose commands come and go (skills, procedures, MCP prompts, plugins).

Both screens build their table here, so a command added once works in the terminal and the HUD.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from jarvis.app.agent_commands import agent_listing, unknown_agent
from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.focus.command import focus_command
from jarvis.app.infra import AppAssembly
from jarvis.app.proactive.feedback import COMMANDS, feedback_command
from jarvis.app.proactive.learned import learner_command
from jarvis.common.i18n import t
from jarvis.core.agents.direct import orchestrate_args, orchestrate_usage, run_tool_now
from jarvis.core.commands import (
    BUILTINS,
    CommandContext,
    CommandTable,
    Handler,
    NewSession,
    OpenSession,
    Outcome,
    Quit,
    Reply,
    RunWork,
)
from jarvis.core.commands.sources import (
    McpPromptCommands,
    PluginCommands,
    ProcedureCommands,
    SkillCommands,
)
from jarvis.core.procedures.segment import Segment, session_segment
from jarvis.core.procedures.slash import procedures_command
from jarvis.core.slash.memory import SlashScope, memory_command
from jarvis.core.slash.openloop import openloop_command
from jarvis.model_layer.provider import Provider

_SEGMENT_TURNS = 50  # the recent turns `/procedures learn` looks at
_SESSIONS_LISTED = 20


def build_commands(agents: AgentRegistry) -> CommandTable:
    app = agents.app
    handlers = _Handlers(app, agents)
    table = CommandTable()
    for spec in BUILTINS:
        table.register(replace(spec, handler=handlers.of(spec.name)))
    table.add_source(SkillCommands(app.skills))
    table.add_source(ProcedureCommands(lambda: app.learning.library if app.learning else None))
    table.add_source(McpPromptCommands(app.mcp))
    table.add_source(PluginCommands(app.plugins))
    handlers.table = table

    async def agent_ids(agent_id: str, user_id: str) -> list[str]:
        return agents.ids()

    async def session_ids(agent_id: str, user_id: str) -> list[str]:
        return [info.id for info in await agents.list(user_id=user_id)][:_SESSIONS_LISTED]

    table.values.update(agents=agent_ids, sessions=session_ids)
    return table


class _Handlers:
    def __init__(self, app: AppAssembly, agents: AgentRegistry) -> None:
        self.app = app
        self.agents = agents
        self.table = CommandTable()

    def of(self, name: str) -> Handler:
        if name in ("remember", "forget", "wrong", "note"):
            return self._memory
        if name == "focus":
            return focus_command(self.app).handler
        if name in COMMANDS:
            return feedback_command(self.app)
        if name == "learner":
            return learner_command(self.app)
        handler: Handler = getattr(self, f"_{name}")
        return handler

    async def _new(self, ctx: CommandContext) -> Outcome:
        return NewSession(ctx.session.setup.agent_id)

    async def _sessions(self, ctx: CommandContext) -> Outcome:
        builder = self.agents.get(ctx.session.setup.agent_id) or self.agents.main
        sessions = await builder.list(user_id=ctx.user_id)
        if not sessions:
            return Reply(t("terminal.no_sessions", ctx.lang))
        rows = []
        for info in sessions[:_SESSIONS_LISTED]:
            when = datetime.fromtimestamp(info.updated_ms / 1000).strftime("%Y-%m-%d %H:%M")
            mark = "*" if info.id == ctx.session.id else " "
            rows.append(
                t(
                    "terminal.session_row",
                    ctx.lang,
                    mark=mark,
                    session=info.id,
                    when=when,
                    turns=info.turns,
                    title=info.title,
                )
            )
        return Reply("\n".join(rows))

    async def _resume(self, ctx: CommandContext) -> Outcome:
        if not ctx.args:
            return Reply(t("terminal.resume_usage", ctx.lang))
        session = await self.agents.open(ctx.args, ctx.lang)
        if session is None or session.info.user_id != ctx.user_id:  # another's is not found
            return Reply(t("terminal.session_missing", ctx.lang, session=ctx.args))
        return OpenSession(session)

    async def _stop(self, ctx: CommandContext) -> Outcome:
        stopped = ctx.session.abort()
        return Reply(t("commands.stopped" if stopped else "commands.nothing_running", ctx.lang))

    async def _status(self, ctx: CommandContext) -> Outcome:
        setup = ctx.session.setup
        state = t(
            "commands.status.running" if ctx.session.running else "commands.status.idle", ctx.lang
        )
        return Reply(
            t(
                "commands.status",
                ctx.lang,
                provider=_vendor(setup.provider),
                model=setup.model,
                agent=setup.agent_name,
                agent_id=setup.agent_id,
                session=ctx.session.id,
                turns=ctx.session.info.turns,
                state=state,
            )
        )

    async def _agent(self, ctx: CommandContext) -> Outcome:
        if not ctx.args:
            return Reply(agent_listing(self.agents, ctx.session.info.agent_id, ctx.lang))
        if self.agents.get(ctx.args) is None:
            return Reply(unknown_agent(self.agents, ctx.args, ctx.lang))
        return NewSession(ctx.args)

    async def _orchestrate(self, ctx: CommandContext) -> Outcome:
        args = orchestrate_args(ctx.args)
        if args is None:
            return Reply(orchestrate_usage(ctx.session))
        session = ctx.session

        async def work() -> str:
            return (await run_tool_now(session, "orchestrate", args)).content

        return RunWork(work)

    async def _openloop(self, ctx: CommandContext) -> Outcome:
        info = ctx.session.info
        return Reply(
            await openloop_command(
                self.app.openloops, info.agent_id, ctx.user_id, ctx.args, ctx.lang
            )
        )

    async def _memory(self, ctx: CommandContext) -> Outcome:
        """`/remember`, `/forget`, `/wrong`, `/note` (core/slash/memory.py)."""
        reply = await memory_command(self.app.memory, self._scope(ctx), ctx.name, ctx.args)
        return Reply(reply or t("commands.unknown", ctx.lang, name=ctx.name))

    async def _procedures(self, ctx: CommandContext) -> Outcome:
        learning = self.app.learning
        if learning is None:
            return Reply(t("procedures.none", ctx.lang))
        scope = self._scope(ctx)
        store = self.app.session_store

        async def segment() -> Segment | None:
            return session_segment(await store.recent(scope.session_id, _SEGMENT_TURNS))

        return Reply(
            await procedures_command(
                learning.learner,
                scope.agent_id,
                scope.user_id,
                ctx.args,
                ctx.lang,
                scope.now_ms,
                segment,
                scope.session_id,
            )
        )

    async def _help(self, ctx: CommandContext) -> Outcome:
        agent = ctx.session.setup.agent_id
        lines = await self.table.help_lines(agent, ctx.screen, ctx.lang)
        extra = [t("commands.approval_keys", ctx.lang)] if ctx.screen == "terminal" else []
        return Reply("\n".join([t("commands.header", ctx.lang), *lines, *extra]))

    async def _exit(self, ctx: CommandContext) -> Outcome:
        return Quit()

    def _scope(self, ctx: CommandContext) -> SlashScope:
        info = ctx.session.info
        return SlashScope(
            ctx.session.setup.agent_id,
            ctx.user_id,
            info.id,
            info.turns,
            ctx.lang,
            self.app.clock.now_ms(),
        )


def _vendor(provider: Provider) -> str:
    """The provider that answers, under the lanes that wrap it (model_layer/lanes.py)."""
    while isinstance(inner := getattr(provider, "inner", None), Provider):
        provider = inner
    return provider.name
