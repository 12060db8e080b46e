"""What Jarvis answers when a server asks the client: roots (the workspace), elicitation and
sampling (through human-in-the-loop handlers the app supplies)."""

from __future__ import annotations

from pathlib import Path

import mcp_types
from mcp.client.session import ClientRequestContext, ListRootsFnT
from pydantic import FileUrl


def workspace_roots(workspace: Path) -> ListRootsFnT:
    """Roots = the workspace, the folder Jarvis's own file tools work in."""
    root = mcp_types.Root(uri=FileUrl(workspace.resolve().as_uri()), name="workspace")

    async def list_roots(context: ClientRequestContext) -> mcp_types.ListRootsResult:
        return mcp_types.ListRootsResult(roots=[root])

    return list_roots
