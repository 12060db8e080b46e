"""Where MCP servers are configured: `config.yaml` (`mcp_servers` list or `mcpServers` map),
`JARVIS_MCP_SERVERS`, and `~/.jarvis/mcp.json` (Claude-Desktop form, what `jarvis mcp add`
writes). Each entry is judged on its own; a broken one is reported with its file and key."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Final

from jarvis.app.settings import CONFIG_FILE, Settings
from jarvis.common.atomic import atomic_write_text
from jarvis.core.mcp import ConfigProblem
from jarvis.core.mcp.sources import ServerSet, collect

MCP_JSON: Final = "mcp.json"
# `jarvis mcp reconnect` drops this into the data dir; the running app's watcher reconnects
# the named server ("*": all) and deletes it. A file, since the CLI is another process.
RECONNECT_FILE: Final = "mcp-reconnect"
_ENV: Final = "JARVIS_MCP_SERVERS"


def mcp_json_path(settings: Settings) -> Path:
    return settings.home.expanduser() / MCP_JSON


def server_set(settings: Settings) -> ServerSet:
    config_yaml = settings.home.expanduser() / CONFIG_FILE
    listed = _ENV if os.environ.get(_ENV) else f"{config_yaml}: mcp_servers"
    path = mcp_json_path(settings)
    servers, problem = read_mcp_json(path)
    found = collect(
        (listed, settings.mcp_servers),
        (f"{config_yaml}: mcpServers", settings.mcp_desktop_servers),
        (f"{path}: mcpServers", servers),
    )
    if problem is not None:
        found.problems.append(ConfigProblem(MCP_JSON, str(path), problem))
    return found


def read_mcp_json(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The file's `mcpServers` map, or why it cannot be read (None, None: no file)."""
    if not path.is_file():
        return None, None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"cannot read: {exc}"
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        return None, 'the top level must be {"mcpServers": {name: {...}}}'
    return servers, None


def write_mcp_json(path: Path, servers: dict[str, Any]) -> None:
    """Keeps other top-level keys; owner-only, since env and headers may hold tokens."""
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            data = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            data = {}
    data["mcpServers"] = servers
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    path.chmod(0o600)
