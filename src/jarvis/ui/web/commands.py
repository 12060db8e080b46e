"""The HUD's adapter for the command table (core/commands): a typed `/…` line runs through the
table and its outcome goes to the page as protocol messages (docs/protocol.md) — a line
(`command_result`), a turn, `agent_switch` / `session_switch`, work run like a turn — and
`GET /api/commands` lists the table for the page's `/` suggestions. Which command a line names
is the table's business, never this module's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from fastapi import FastAPI

from jarvis.common.i18n import Language, t
from jarvis.core.commands import CommandContext, CommandTable, Reply, deliver
from jarvis.core.session import AgentSession
from jarvis.ui.web.broker import Connection


class HudRunner(Protocol):
    """What the server offers: start a turn, or work like one, beside the connection's reader."""

    def start_turn(self, session: AgentSession, text: str) -> None: ...

    def start_work(self, session: AgentSession, work: Coroutine[Any, Any, Any]) -> None: ...


class HudScreen:
    """One connection, drawing outcomes as protocol messages."""

    def __init__(self, runner: HudRunner, session: AgentSession, connection: Connection) -> None:
        self.runner = runner
        self.session = session
        self.connection = connection

    def context(self, line: str) -> CommandContext:
        lang = self.session.setup.language
        return CommandContext(self.session, self.connection.user_id, lang, "hud", line.strip())

    async def reply(self, text: str) -> None:
        self.connection.send({"type": "command_result", "text": text})

    async def run_prompt(self, text: str) -> None:
        self.runner.start_turn(self.session, text)

    async def new_session(self, agent_id: str) -> None:
        self.connection.send({"type": "agent_switch", "agent": agent_id})

    async def open_session(self, session: AgentSession) -> None:
        self.connection.send({"type": "session_switch", "session": session.id})

    async def run_work(self, work: Callable[[], Awaitable[str]]) -> None:
        async def shown() -> None:  # beside the reader: its approvals are answered here
            await self.reply(await work())

        self.runner.start_work(self.session, shown())


async def run_typed(table: CommandTable, screen: HudScreen, line: str) -> bool:
    """A message from the box that names a command runs it (True); any other is a prompt."""
    if not line.startswith("/"):
        return False
    outcome = await table.run(screen.context(line))
    if outcome is None:
        return False
    await deliver(outcome, screen)
    return True


async def run_command(table: CommandTable, screen: HudScreen, line: str) -> None:
    """A `command` message: an unknown name is answered, not sent to the model."""
    context = screen.context(line)
    outcome = await table.run(context)
    if outcome is None:
        outcome = Reply(t("commands.unknown", context.lang, name=context.name))
    await deliver(outcome, screen)


async def listing(table: CommandTable, agent_id: str, lang: Language) -> list[dict[str, Any]]:
    """The HUD's `/` list: every command it runs, with usage and help."""
    return [
        {
            "command": f"/{command.name}",
            "usage": command.usage(),
            "description": command.help(lang),
            "origin": command.origin,
            "aliases": [f"/{alias}" for alias in command.aliases],
        }
        for command in await table.commands(agent_id, "hud")
    ]


def register(app: FastAPI, table: CommandTable) -> None:
    @app.get("/api/commands")
    async def commands(agent: str = "main", lang: str = "ko") -> dict[str, Any]:
        language: Language = "en" if lang == "en" else "ko"
        return {"commands": await listing(table, agent, language)}
