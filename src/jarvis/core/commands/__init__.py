"""One table of slash commands for every screen (see table.py)."""

from jarvis.core.commands.builtins import BUILTINS
from jarvis.core.commands.outcomes import (
    CommandScreen,
    NewSession,
    OpenSession,
    Outcome,
    Quit,
    Reply,
    RunPrompt,
    RunWork,
    deliver,
)
from jarvis.core.commands.table import (
    EVERY_SCREEN,
    TERMINAL_ONLY,
    Argument,
    Command,
    CommandContext,
    CommandSource,
    CommandTable,
    Handler,
    ListedSource,
    Screen,
    help_lines,
)

__all__ = [
    "BUILTINS",
    "EVERY_SCREEN",
    "TERMINAL_ONLY",
    "Argument",
    "Command",
    "CommandContext",
    "CommandScreen",
    "CommandSource",
    "CommandTable",
    "Handler",
    "ListedSource",
    "NewSession",
    "OpenSession",
    "Outcome",
    "Quit",
    "Reply",
    "RunPrompt",
    "RunWork",
    "Screen",
    "deliver",
    "help_lines",
]
