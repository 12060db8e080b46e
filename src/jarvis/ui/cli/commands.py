"""The terminal's adapter for the command table (core/commands): Tab completion with each
command's help, and how the chat draws an outcome (`TerminalScreen`). Which command a line names
is the table's business, never this module's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from jarvis.common.i18n import Language, t
from jarvis.core.commands import CommandContext, CommandScreen, CommandTable, Reply, deliver
from jarvis.core.session import AgentSession

Completions = Callable[[str], Awaitable[list[tuple[str, str]]]]


class TerminalScreen(CommandScreen, Protocol):
    """The chat, as the adapter sees it: its session and language, and the outcome methods."""

    @property
    def session(self) -> AgentSession: ...

    @property
    def lang(self) -> Language: ...


def _context(screen: TerminalScreen, line: str) -> CommandContext:
    session = screen.session
    return CommandContext(session, session.info.user_id, screen.lang, "terminal", line)


async def run_line(table: CommandTable, screen: TerminalScreen, line: str) -> bool:
    """Run a typed `/…` line; False when the chat should end."""
    outcome = await table.run(_context(screen, line))
    if outcome is None:
        name = line.strip().partition(" ")[0]
        outcome = Reply(t("commands.unknown", screen.lang, name=name))
    return await deliver(outcome, screen)


async def run_during_turn(table: CommandTable, screen: TerminalScreen, line: str) -> bool:
    """A line typed while a turn runs: True when it was a command that runs at once (`/stop`)."""
    if not line.startswith("/"):
        return False
    command = await table.find(line.strip().partition(" ")[0][1:], screen.session.setup.agent_id)
    if command is None or not command.during_turn:
        return False
    await run_line(table, screen, line)
    return True


def completions(table: CommandTable, screen: TerminalScreen) -> Completions:
    """Tab after `/`: every command the terminal runs, with its help; after the name, the
    first argument's values (`/agent k` → karen)."""

    async def complete(typed: str) -> list[tuple[str, str]]:
        session = screen.session
        agent = session.setup.agent_id
        if " " in typed:
            values = await table.argument_values(typed, agent, session.info.user_id)
            head = typed.rpartition(" ")[0]
            return [(f"{head} {value}", "") for value in values]
        listed = await table.commands(agent, "terminal")
        return [
            (f"/{name}", command.help(screen.lang))
            for command in listed
            for name in command.names()
            if f"/{name}".startswith(typed)
        ]

    return complete
