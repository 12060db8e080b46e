"""What Jarvis answers when a server asks the client: roots (the workspace), elicitation and
sampling (through human-in-the-loop handlers the app supplies)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import FileUrl

if TYPE_CHECKING:
    import mcp_types
    from mcp.client.session import ClientRequestContext, ListRootsFnT


def workspace_roots(workspace: Path) -> ListRootsFnT:
    """Roots = the workspace, the folder Jarvis's own file tools work in."""
    uri = FileUrl(workspace.resolve().as_uri())

    async def list_roots(context: ClientRequestContext) -> mcp_types.ListRootsResult:
        import mcp_types  # here: a server starts without the SDK (it loads on first connect)

        return mcp_types.ListRootsResult(roots=[mcp_types.Root(uri=uri, name="workspace")])

    return list_roots
