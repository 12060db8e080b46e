"""Names the model sees for MCP tools: `<server>__<tool>`, in the form model APIs accept.

The MCP spec allows tool names up to 128 characters with `.` and `/`; OpenAI and Anthropic
accept only `^[a-zA-Z0-9_-]{1,64}$`, and one bad name fails every request. A name that already
fits is kept as `<server>__<tool>` (readable, and what rules and docs show); one that does not is
cleaned and cut, with a short hash of the original appended so the result is stable across
restarts and two originals never meet. `NameTable` maps back from the exposed name.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Final

SEPARATOR: Final = "__"
MAX_NAME: Final = 64
VALID_NAME: Final = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_INVALID_CHAR: Final = re.compile(r"[^a-zA-Z0-9_-]")
_HASH_CHARS: Final = 8


def exposed_name(server: str, tool: str, *, hash_chars: int = _HASH_CHARS) -> str:
    """The model-facing name of `tool` on `server` (pure, stable, API-valid)."""
    full = f"{server}{SEPARATOR}{tool}"
    if VALID_NAME.match(full):
        return full
    digest = hashlib.sha256(full.encode()).hexdigest()[:hash_chars]
    clean = _INVALID_CHAR.sub("_", full)[: MAX_NAME - len(digest) - 1]
    return f"{clean}_{digest}"


class NameTable:
    """One server's tools: exposed name ↔ the tool's own name, collision-free."""

    def __init__(self, server: str, tools: Iterable[str]) -> None:
        self.server = server
        self._to_tool: dict[str, str] = {}
        self._to_exposed: dict[str, str] = {}
        for tool in dict.fromkeys(tools):
            self._add(tool)

    def _add(self, tool: str) -> None:
        hash_chars = _HASH_CHARS
        name = exposed_name(self.server, tool)
        # A cleaned name can only meet another by a hash collision: lengthen the hash.
        while name in self._to_tool:
            hash_chars += 4
            name = exposed_name(self.server, tool + "\x00", hash_chars=hash_chars)
        self._to_tool[name] = tool
        self._to_exposed[tool] = name

    def exposed(self, tool: str) -> str:
        return self._to_exposed[tool]

    def tool(self, exposed: str) -> str | None:
        """The server's own name for an exposed name, or None if it is not this server's."""
        return self._to_tool.get(exposed)

    def items(self) -> list[tuple[str, str]]:
        """(exposed, own) pairs in listing order."""
        return list(self._to_tool.items())
