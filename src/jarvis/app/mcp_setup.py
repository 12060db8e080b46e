"""The MCP manager as the app runs it: roots = the workspace, elicitation in the session's
windows, sampling through the app's model behind an approval, OAuth tokens from the data dir,
server stderr in `logs/mcp/<server>.log`, stdio servers inside the OS sandbox
(`security.sandbox`, each server's `network` and `writable`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import httpx2

from jarvis.app.mcp_sampling import approved_sampler
from jarvis.app.settings import Settings
from jarvis.common.clock import Clock
from jarvis.core.approvals.service import ApprovalService
from jarvis.core.confine import Confiner
from jarvis.core.mcp.config import MCPServerConfig
from jarvis.core.mcp.elicitation import ElicitationDesk
from jarvis.core.mcp.hooks import ClientHooks
from jarvis.core.mcp.host import workspace_roots
from jarvis.core.mcp.manager import MCPManager
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer.config import ModelSettings
from jarvis.model_layer.provider import Provider


def build_mcp(
    settings: Settings,
    tools: ToolRegistry,
    approvals: ApprovalService | None,
    clock: Clock,
    provider: Callable[[], tuple[Provider, ModelSettings]],
) -> MCPManager:
    timeout = settings.security.approval_timeout_sec
    sampler = approved_sampler(approvals, provider, clock, timeout) if approvals else None
    hooks = ClientHooks(
        roots=workspace_roots(settings.workspace_dir),
        desk=ElicitationDesk(timeout),
        sampler=sampler,
        confine=_confine(settings) if settings.security.sandbox != "off" else None,
    )
    return MCPManager(
        tools,
        log_dir=settings.home / "logs" / "mcp",
        hooks=hooks,
        auth=lambda config: _stored_auth(settings.home, config),
    )


def _stored_auth(home: Path, config: MCPServerConfig) -> httpx2.Auth | None:
    # Imported when a server connects: the OAuth module loads the MCP SDK (start-up without it).
    from jarvis.core.mcp.oauth import stored_auth

    return stored_auth(home)(config)


def _confine(settings: Settings) -> Callable[[Sequence[str], bool, Sequence[str]], list[str]]:
    confiner = Confiner.from_settings(
        settings.security, Path.home(), settings.home, settings.language
    )
    workspace = settings.workspace_dir

    def confine(argv: Sequence[str], network: bool, writable: Sequence[str]) -> list[str]:
        return confiner.server(argv, workspace, network, writable)

    return confine
