"""Commands that come and go, asked each time so a hot reload shows at once: skills
(~/.jarvis/skills), approved procedures of the agent, connected MCP servers' prompts
(`/<server>:<prompt>`), and commands plugins declare (`commands = [Command(...)]`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from jarvis.common.i18n import t
from jarvis.common.logging import get_logger
from jarvis.core.commands.outcomes import Outcome, Reply, RunPrompt
from jarvis.core.commands.table import Command, CommandContext, Handler
from jarvis.core.extensions import SkillRegistry
from jarvis.core.mcp import MCPManager
from jarvis.core.plugins import PluginHost
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.model import Procedure
from jarvis.core.procedures.tools import approved_procedures, recipe

_log = get_logger("jarvis.plugins")


async def _as_typed(context: CommandContext) -> Outcome:
    """The session expands the line itself (a skill's prompt, an MCP prompt's messages)."""
    return RunPrompt(context.line.strip())


class SkillCommands:
    def __init__(self, skills: SkillRegistry) -> None:
        self.skills = skills

    def _command(self, name: str) -> Command | None:
        skill = self.skills.get(name)
        if skill is None:
            return None
        return Command(
            skill.name,
            _as_typed,
            help_text=skill.description,
            aliases=skill.aliases,
            origin="skill",
        )

    async def commands(self, agent_id: str) -> list[Command]:
        return [c for skill in self.skills.list() if (c := self._command(skill.name)) is not None]

    async def find(self, name: str, agent_id: str) -> Command | None:
        return self._command(name)


class ProcedureCommands:
    """`/<name> ARGS` of an approved procedure of the agent: its recipe runs as a turn."""

    def __init__(self, library: Callable[[], ProcedureLibrary | None]) -> None:
        self.library = library

    async def commands(self, agent_id: str) -> list[Command]:
        library = self.library()
        if library is None:
            return []
        return [
            Command(
                procedure.name,
                _runs(procedure),
                help_text=procedure.description,
                origin="procedure",
            )
            for procedure in approved_procedures(library, agent_id)
        ]

    async def find(self, name: str, agent_id: str) -> Command | None:
        return next((c for c in await self.commands(agent_id) if c.name == name), None)


def _runs(procedure: Procedure) -> Handler:
    async def run(context: CommandContext) -> Outcome:
        return RunPrompt(recipe(procedure, context.args))

    return run


class McpPromptCommands:
    def __init__(self, mcp: MCPManager) -> None:
        self.mcp = mcp

    async def commands(self, agent_id: str) -> list[Command]:
        return [
            Command(
                f"{info.server}:{info.name}", _as_typed, help_text=info.description, origin="mcp"
            )
            for info in await self.mcp.prompts()
        ]

    async def find(self, name: str, agent_id: str) -> Command | None:
        """Any `/<server>:<prompt>` of a configured server: the server answers for the prompt."""
        server, colon, prompt = name.partition(":")
        if not colon or not prompt or self.mcp.connection(server) is None:
            return None
        return Command(name, _as_typed, origin="mcp")


class PluginCommands:
    """What loaded plugins declare in `commands`; a reload swaps the plugins and these."""

    def __init__(self, host: PluginHost) -> None:
        self.host = host

    async def commands(self, agent_id: str) -> list[Command]:
        found: list[Command] = []
        for plugin in list(self.host.plugins):
            declared = getattr(plugin, "commands", ())
            if isinstance(declared, (list, tuple)):
                found += [_isolated(plugin, c) for c in declared if isinstance(c, Command)]
        return found

    async def find(self, name: str, agent_id: str) -> Command | None:
        return next((c for c in await self.commands(agent_id) if name in c.names()), None)


def _isolated(plugin: object, command: Command) -> Command:
    """A plugin's command whose failure is logged and answered, never raised into a screen."""
    handler = command.handler
    owner = str(getattr(plugin, "name", type(plugin).__name__))

    async def run(context: CommandContext) -> Outcome:
        try:
            return await handler(context)
        except Exception:
            _log.exception("plugin %s failed in /%s", owner, command.name)
            return Reply(t("commands.plugin_failed", context.lang, plugin=owner, name=context.name))

    return replace(command, handler=run, origin="plugin")
