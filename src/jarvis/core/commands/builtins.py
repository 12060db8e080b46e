"""The fixed slash commands as data: names, arguments, help, screens.

`jarvis chat --help` prints these without starting anything; the app binds each one's handler
(app/commands.py) and a test asserts none is left unbound.
"""

from __future__ import annotations

from jarvis.core.commands.outcomes import Outcome
from jarvis.core.commands.table import (
    EVERY_SCREEN,
    TERMINAL_ONLY,
    Argument,
    Command,
    CommandContext,
    Screen,
)

PATTERNS = ("supervisor", "hierarchical", "market", "blackboard")
_PROCEDURE_VERBS = ("list", "show", "approve", "reject", "learn")


async def unbound(context: CommandContext) -> Outcome:
    raise NotImplementedError(f"{context.name} has no handler bound")


def _spec(
    name: str,
    *args: Argument,
    aliases: tuple[str, ...] = (),
    screens: frozenset[Screen] = EVERY_SCREEN,
    during_turn: bool = False,
) -> Command:
    return Command(
        name=name,
        handler=unbound,
        help_key=f"commands.help.{name}",
        aliases=aliases,
        args=args,
        screens=screens,
        during_turn=during_turn,
    )


BUILTINS: tuple[Command, ...] = (
    _spec("new"),
    _spec("sessions"),
    _spec("resume", Argument("ID", source="sessions")),
    _spec("stop", during_turn=True),
    _spec("status", during_turn=True),
    _spec("agent", Argument("ID", optional=True, source="agents")),
    _spec("orchestrate", Argument("PATTERN", choices=PATTERNS), Argument("TASK")),
    _spec("openloop", Argument("VERB ID", optional=True, choices=("done", "dismiss", "explain"))),
    _spec("remember", Argument("TEXT", optional=True)),
    _spec("forget", Argument("ID")),
    _spec("wrong"),
    _spec("note", Argument("TEXT")),
    _spec("procedures", Argument("VERB NAME", optional=True, choices=_PROCEDURE_VERBS)),
    _spec("focus", Argument("OBJECTIVE", optional=True)),
    # feedback on the last thing Jarvis said first (the HUD's card has buttons for it)
    _spec("good", screens=TERMINAL_ONLY),
    _spec("bad", screens=TERMINAL_ONLY),
    _spec("doit", screens=TERMINAL_ONLY),
    # what speaking first has learned, and its resets (the HUD also has a card for it)
    _spec("learner", Argument("reset [KIND] | unmute TOPIC", optional=True)),
    _spec("help"),
    _spec("exit", aliases=("quit",), screens=TERMINAL_ONLY),
)
