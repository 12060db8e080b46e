"""The HUD's adapter for the command table (core/commands): a typed `/…` line runs through the
table and its outcome goes to the page as protocol messages (docs/protocol.md) — a line
(`command_result`), a turn, `agent_switch` / `session_switch`, work run like a turn. Which
command a line names is the table's business, never this module's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from fastapi import FastAPI

from jarvis.common.i18n import Language, t
from jarvis.core.commands import (
    CommandContext,
    CommandTable,
    NewSession,
    OpenSession,
    Outcome,
    Quit,
    Reply,
    RunPrompt,
    RunWork,
)
from jarvis.core.session import AgentSession
from jarvis.ui.web.broker import Connection


class HudRunner(Protocol):
    """What the server offers: start a turn, or work like one, beside the connection's reader."""

    def start_turn(self, session: AgentSession, text: str) -> None: ...

    def start_work(self, session: AgentSession, work: Coroutine[Any, Any, Any]) -> None: ...


def _context(
    session: AgentSession, connection: Connection, lang: Language, line: str
) -> CommandContext:
    return CommandContext(session, connection.user_id, lang, "hud", line)


async def run_typed(
    table: CommandTable,
    runner: HudRunner,
    session: AgentSession,
    connection: Connection,
    line: str,
) -> bool:
    """A message from the box that names a command runs it (True); any other is a prompt."""
    if not line.startswith("/"):
        return False
    outcome = await table.run(_context(session, connection, session.setup.language, line))
    if outcome is None:
        return False
    draw(outcome, runner, session, connection)
    return True


async def run_command(
    table: CommandTable,
    runner: HudRunner,
    session: AgentSession,
    connection: Connection,
    line: str,
) -> None:
    """A `command` message: an unknown name is answered, not sent to the model."""
    lang = session.setup.language
    outcome = await table.run(_context(session, connection, lang, line.strip()))
    if outcome is None:
        name = line.strip().partition(" ")[0]
        outcome = Reply(t("commands.unknown", lang, name=name))
    draw(outcome, runner, session, connection)


def draw(
    outcome: Outcome, runner: HudRunner, session: AgentSession, connection: Connection
) -> None:
    if isinstance(outcome, Reply):
        connection.send({"type": "command_result", "text": outcome.text})
    elif isinstance(outcome, RunPrompt):
        runner.start_turn(session, outcome.text)
    elif isinstance(outcome, NewSession):
        connection.send({"type": "agent_switch", "agent": outcome.agent_id})
    elif isinstance(outcome, OpenSession):
        connection.send({"type": "session_switch", "session": outcome.session.id})
    elif isinstance(outcome, RunWork):  # beside the reader: its approvals are answered here
        runner.start_work(session, _shown(outcome.work, connection))
    elif isinstance(outcome, Quit):  # the page is closed, not quit from
        connection.send({"type": "command_result", "text": ""})


async def _shown(work: Callable[[], Awaitable[str]], connection: Connection) -> None:
    connection.send({"type": "command_result", "text": await work()})


async def listing(table: CommandTable, agent_id: str, lang: Language) -> list[dict[str, Any]]:
    """The HUD's `/` list: every command it runs, with usage and help."""
    found = await table.commands(agent_id, "hud")
    return [
        {
            "command": f"/{command.name}",
            "usage": command.usage(),
            "description": command.help(lang),
            "origin": command.origin,
            "aliases": [f"/{alias}" for alias in command.aliases],
        }
        for command in found
    ]


def register(app: FastAPI, table: CommandTable) -> None:
    @app.get("/api/commands")
    async def commands(agent: str = "main", lang: str = "ko") -> dict[str, Any]:
        language: Language = "en" if lang == "en" else "ko"
        return {"commands": await listing(table, agent, language)}
