"""The command table: every slash command, wherever it comes from, in one place (seed 003).

A command is data — a name, aliases, its arguments and where their values complete from, a
one-line help (a message-catalog key), the screens it may run on — and a handler that takes the
context of the screen it was typed on and returns an outcome. A handler never prints and never
touches a socket: the terminal and the HUD each keep one adapter that draws outcomes
(ui/cli/commands.py, ui/web/commands.py).

Fixed commands are registered once at start-up; sources (skills, learned procedures, MCP prompts,
plugins) are asked when a line is looked up or completed, so a hot reload shows at the next key.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from jarvis.common.i18n import Language, t
from jarvis.core.commands.outcomes import Outcome, Reply

if TYPE_CHECKING:
    from jarvis.core.session import AgentSession

Screen = Literal["terminal", "hud", "unattended"]
EVERY_SCREEN: frozenset[Screen] = frozenset({"terminal", "hud"})
TERMINAL_ONLY: frozenset[Screen] = frozenset({"terminal"})


@dataclass(frozen=True)
class Argument:
    """One argument: its name in help, and where Tab / the HUD's list finds its values
    (`choices` as given, or a named source the screen asks: "sessions", "agents")."""

    name: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    source: str = ""

    def usage(self) -> str:
        return f"[{self.name}]" if self.optional else self.name


@dataclass(frozen=True)
class CommandContext:
    """Who typed the command, on which screen, in which language, in which session."""

    session: AgentSession
    user_id: str
    lang: Language
    screen: Screen
    line: str

    @property
    def name(self) -> str:
        return self.line.strip().partition(" ")[0]

    @property
    def args(self) -> str:
        return self.line.strip().partition(" ")[2].strip()


Handler = Callable[[CommandContext], Awaitable[Outcome]]


@dataclass(frozen=True)
class Command:
    name: str  # without the slash
    handler: Handler
    help_key: str = ""  # the one-line help in the message catalog
    help_text: str = ""  # or a description that is not in the catalog (a skill's, a prompt's)
    aliases: tuple[str, ...] = ()
    args: tuple[Argument, ...] = ()
    screens: frozenset[Screen] = EVERY_SCREEN  # never "unattended" unless named
    during_turn: bool = False  # runs at once while a turn runs (/stop), not after it
    origin: str = "builtin"  # builtin, memory, procedure, skill, mcp, plugin

    def help(self, lang: Language) -> str:
        return t(self.help_key, lang) if self.help_key else self.help_text

    def usage(self) -> str:
        return " ".join([f"/{self.name}", *(arg.usage() for arg in self.args)])

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


class CommandSource(Protocol):
    """Commands that come and go (skills, procedures, MCP prompts, plugins): asked each time."""

    async def commands(self, agent_id: str) -> list[Command]: ...

    async def find(self, name: str, agent_id: str) -> Command | None: ...


@dataclass
class ListedSource:
    """A source from a function that lists its commands (find scans the list)."""

    listing: Callable[[str], Awaitable[list[Command]]]

    async def commands(self, agent_id: str) -> list[Command]:
        return await self.listing(agent_id)

    async def find(self, name: str, agent_id: str) -> Command | None:
        return next((c for c in await self.listing(agent_id) if name in c.names()), None)


# Where an argument's values come from ("agents", "sessions"): given the agent and the person.
ValueSource = Callable[[str, str], Awaitable[list[str]]]


@dataclass
class CommandTable:
    fixed: dict[str, Command] = field(default_factory=dict)  # every name and alias
    sources: list[CommandSource] = field(default_factory=list)
    values: dict[str, ValueSource] = field(default_factory=dict)

    def register(self, command: Command) -> None:
        for name in command.names():
            if name in self.fixed:
                raise ValueError(f"slash command registered twice: /{name}")
        for name in command.names():
            self.fixed[name] = command

    def add_source(self, source: CommandSource) -> None:
        self.sources.append(source)

    def builtins(self) -> list[Command]:
        return list(dict.fromkeys(self.fixed.values()))

    async def commands(self, agent_id: str, screen: Screen) -> list[Command]:
        """Every command `screen` may run, fixed ones first, each name once."""
        found = self.builtins()
        for source in self.sources:
            found += await source.commands(agent_id)
        return [c for c in _first_of_each_name(found) if screen in c.screens]

    async def find(self, name: str, agent_id: str) -> Command | None:
        """The command called `name` (without the slash): fixed first, then each source."""
        if name in self.fixed:
            return self.fixed[name]
        for source in self.sources:
            found = await source.find(name, agent_id)
            if found is not None:
                return found
        return None

    async def run(self, context: CommandContext) -> Outcome | None:
        """The command's outcome; None when the line names no command."""
        command = await self.find(context.name[1:], context.session.setup.agent_id)
        if command is None:
            return None
        if context.screen not in command.screens:
            return Reply(t("commands.not_here", context.lang, name=context.name))
        return await command.handler(context)

    async def argument_values(self, line: str, agent_id: str, user_id: str) -> list[str]:
        """What the first argument of the typed command may be: `/agent k` → ["karen"]."""
        name, space, typed = line.partition(" ")
        command = await self.find(name[1:], agent_id) if space and " " not in typed else None
        if command is None or not command.args:
            return []
        arg = command.args[0]
        found = list(arg.choices)
        if arg.source in self.values:
            found += await self.values[arg.source](agent_id, user_id)
        return [value for value in found if value.startswith(typed)]

    async def help_lines(self, agent_id: str, screen: Screen, lang: Language) -> list[str]:
        commands = await self.commands(agent_id, screen)
        return help_lines(commands, lang)


def help_lines(commands: Iterable[Command], lang: Language) -> list[str]:
    """One line a command: its usage, padded, then its help."""
    listed = list(commands)
    width = max((len(c.usage()) for c in listed), default=0)
    return [f"  {c.usage():<{width}}  {c.help(lang)}".rstrip() for c in listed]


def _first_of_each_name(commands: list[Command]) -> list[Command]:
    taken: set[str] = set()
    kept: list[Command] = []
    for command in commands:
        if command.name in taken:
            continue
        taken.update(command.names())
        kept.append(command)
    return kept
