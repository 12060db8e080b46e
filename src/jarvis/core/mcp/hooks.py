"""What the app lends every MCP connection (roots, elicitation, sampling, the OS sandbox).

Its own module, without the MCP SDK: the server builds these at start-up, and the SDK (about
a quarter of a server's import time) loads only when a first server connects."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.mcp.elicitation import ElicitationDesk

if TYPE_CHECKING:
    import mcp_types
    from mcp.client.session import ListRootsFnT

# (argv, network, writable) -> the command line that spawns a stdio server.
Confine = Callable[[Sequence[str], bool, Sequence[str]], list[str]]


class Sampler(Protocol):
    async def __call__(
        self,
        server: str,
        params: mcp_types.CreateMessageRequestParams,
        call: ToolCallContext | None,
    ) -> mcp_types.CreateMessageResult | mcp_types.ErrorData: ...


@dataclass(frozen=True)
class ClientHooks:
    """Client capabilities backed by Jarvis (None: not declared to the server)."""

    roots: ListRootsFnT | None = None
    # Where elicitation requests are asked (see elicitation.py); None: not declared.
    desk: ElicitationDesk | None = None
    # Answers `sampling/createMessage` for the session whose call is running (None: not declared).
    sampler: Sampler | None = None
    # The OS sandbox for stdio servers: (argv, network, writable) -> the command line to spawn
    # (core/confine `Confiner.server`); None: spawned as configured.
    confine: Confine | None = None
