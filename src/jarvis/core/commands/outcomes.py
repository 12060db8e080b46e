"""What a command's handler returns, and the one place an outcome is told apart: each screen
implements `CommandScreen` (draw a line, run a turn, open a session…) and calls `deliver`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from jarvis.core.session import AgentSession


@dataclass(frozen=True)
class Reply:
    """Show this text."""

    text: str


@dataclass(frozen=True)
class RunPrompt:
    """Run this text as the session's next turn (a skill, an MCP prompt, a procedure's recipe)."""

    text: str


@dataclass(frozen=True)
class NewSession:
    """Open a new session of this agent (`/new`, `/agent <id>`)."""

    agent_id: str


@dataclass(frozen=True)
class OpenSession:
    """Show this existing session (`/resume <id>`); the handler checked it is the person's."""

    session: AgentSession


@dataclass(frozen=True)
class RunWork:
    """Run work like a turn (after the running one, stopped by Stop); show its text at the end."""

    work: Callable[[], Awaitable[str]]


@dataclass(frozen=True)
class Quit:
    """End the chat (the terminal's `/exit`)."""


Outcome = Reply | RunPrompt | NewSession | OpenSession | RunWork | Quit


class CommandScreen(Protocol):
    """How a screen draws each outcome (ui/cli/commands.py, ui/web/commands.py)."""

    async def reply(self, text: str) -> None: ...

    async def run_prompt(self, text: str) -> None: ...

    async def new_session(self, agent_id: str) -> None: ...

    async def open_session(self, session: AgentSession) -> None: ...

    async def run_work(self, work: Callable[[], Awaitable[str]]) -> None: ...


async def deliver(outcome: Outcome, screen: CommandScreen) -> bool:
    """Hand `outcome` to the screen; False when the screen should end (`Quit`)."""
    if isinstance(outcome, Reply):
        await screen.reply(outcome.text)
    elif isinstance(outcome, RunPrompt):
        await screen.run_prompt(outcome.text)
    elif isinstance(outcome, NewSession):
        await screen.new_session(outcome.agent_id)
    elif isinstance(outcome, OpenSession):
        await screen.open_session(outcome.session)
    elif isinstance(outcome, RunWork):
        await screen.run_work(outcome.work)
    else:
        return False
    return True
