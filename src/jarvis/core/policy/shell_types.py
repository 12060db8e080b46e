"""The types the shell walker produces and its readers share: `SimpleCommand`, `ShellAnalysis`,
`UnsafeReason`, `StdinSource`. Below every `shell*` module, so none of them imports another back.
See `shell.py` for what the fields and reasons mean.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Literal

UnsafeReason = Literal[
    "parse_error",
    "command_substitution",
    "process_substitution",
    "write_redirection",
    "network_redirection",
    "expansion",
    "dynamic_eval",
    "compound",
    "assignment",
    "empty",
    "heredoc_delimiter",
    "control_character",
    "too_deep",
    "too_complex",
]
StdinSource = Literal["", "pipe", "file", "process_substitution", "herestring", "heredoc"]


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    words: tuple[str, ...]
    assignments: int = 0  # how many leading words are `VAR=value`
    stdin: StdinSource = ""  # where its input comes from when not inherited
    writes: tuple[str, ...] = ()  # targets of its writing redirections, `/dev/null` included
    piped: bool = False  # its output feeds a pipe
    background: bool = False  # run with `&`
    function: str = ""  # the function whose body holds it
    owner: int = -1  # index of the command whose word or redirection holds it (`$(..)`, `<(..)`)

    @property
    def argv(self) -> tuple[str, ...]:
        """The words after leading assignments: what actually runs."""
        return self.words[self.assignments :]

    def text(self) -> str:
        """The words re-quoted (`shlex.join`): what regexes and humans should read."""
        return shlex.join(self.words)


@dataclass(frozen=True, slots=True)
class ShellAnalysis:
    commands: tuple[SimpleCommand, ...]
    unsafe: tuple[UnsafeReason, ...]
    # Byte ranges of heredoc bodies: data, not code (the regex layer blanks them out).
    heredocs: tuple[tuple[int, int], ...] = ()

    @property
    def safe(self) -> bool:
        return not self.unsafe
