"""Server entries from every place they may be written, each judged on its own.

Two forms are accepted: Jarvis's list (`mcp_servers: [{name, transport, …}]`) and the
Claude-Desktop map (`mcpServers: {name: {command, args, env} | {url, headers, type}}`), in
`config.yaml`, `JARVIS_MCP_SERVERS` or `~/.jarvis/mcp.json`. `${VAR}` and `${VAR:-default}` are
expanded in every string. An entry that cannot be used becomes a `ConfigProblem` naming its
file and key; it never takes the other servers down with it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import ValidationError

from jarvis.core.mcp.config import MCPServerConfig
from jarvis.core.mcp.manager import ConfigProblem

_VAR: Final = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
# Keys of Jarvis's own that a Claude-Desktop entry may carry too.
_OWN_KEYS: Final = frozenset(
    {
        "transport",
        "auth_token",
        "timeout",
        "connect_timeout",
        "call_timeout",
        "tool_timeouts",
        "auto_approve",
        "replace_builtins",
        "max_result_chars",
        "require_approval",
    }
)
_HTTP_TYPES: Final = {"http": "http", "streamable-http": "http", "streamableHttp": "http"}


@dataclass
class ServerSet:
    configs: list[MCPServerConfig] = field(default_factory=list)
    problems: list[ConfigProblem] = field(default_factory=list)

    def add(self, name: str, where: str, raw: Any) -> None:
        if any(c.name == name for c in self.configs) or any(p.name == name for p in self.problems):
            self.problems.append(ConfigProblem(f"{name}@{where}", where, f"{name!r} is used twice"))
            return
        try:
            config = raw if isinstance(raw, MCPServerConfig) else _validate(expand(raw))
        except (ValueError, ValidationError) as exc:
            self.problems.append(ConfigProblem(name, where, _summary(exc)))
            return
        self.configs.append(config)


class MissingVariable(ValueError):
    pass


def expand(value: Any, env: Mapping[str, str] | None = None) -> Any:
    """`${VAR}` / `${VAR:-default}` in every string of a JSON-like value."""
    env = os.environ if env is None else env
    if isinstance(value, str):

        def one(match: re.Match[str]) -> str:
            name, default = match.group(1), match.group(2)
            if name in env:
                return env[name]
            if default is not None:
                return default
            raise MissingVariable(f"environment variable {name} is not set")

        return _VAR.sub(one, value)
    if isinstance(value, list):
        return [expand(item, env) for item in value]
    if isinstance(value, dict):
        return {key: expand(item, env) for key, item in value.items()}
    return value


def from_desktop(name: str, entry: Any) -> dict[str, Any] | None:
    """A Claude-Desktop entry as a Jarvis server object; None when it is `disabled`."""
    if not isinstance(entry, dict):
        raise ValueError("must be a mapping with 'command' or 'url'")
    if entry.get("disabled") is True:
        return None
    out: dict[str, Any] = {"name": name, **{k: v for k, v in entry.items() if k in _OWN_KEYS}}
    unknown = set(entry) - _OWN_KEYS - {"command", "args", "env", "url", "headers", "type"}
    unknown.discard("disabled")
    if unknown:
        raise ValueError(f"unknown keys: {', '.join(sorted(unknown))}")
    if "command" in entry:
        out.setdefault("transport", "stdio")
        out["command"] = [entry["command"], *entry.get("args", [])]
        if "env" in entry:
            out["env"] = entry["env"]
    elif "url" in entry:
        url = entry["url"]
        kind = entry.get("type")
        guessed = "sse" if isinstance(url, str) and url.rstrip("/").endswith("/sse") else "http"
        transport = "sse" if kind == "sse" else _HTTP_TYPES.get(str(kind), guessed)
        out.setdefault("transport", transport)
        out["url"] = url
        if "headers" in entry:
            out["headers"] = entry["headers"]
    else:
        raise ValueError("needs 'command' (a local server) or 'url' (a remote one)")
    return out


def collect(*sources: tuple[str, Any]) -> ServerSet:
    """Every entry of every source: `(where, value)` with a list or a `{mcpServers: …}` map."""
    found = ServerSet()
    for where, value in sources:
        if value is None:
            continue
        if isinstance(value, list):
            for index, raw in enumerate(value):
                name = _name_of(raw, f"#{index}")
                found.add(name, f"{where}[{index}]", raw)
        elif isinstance(value, dict):
            for name, entry in value.items():
                key = f"{where}.{name}"
                try:
                    raw = from_desktop(str(name), entry)
                except ValueError as exc:
                    found.problems.append(ConfigProblem(str(name), key, str(exc)))
                    continue
                if raw is not None:
                    found.add(str(name), key, raw)
        else:
            found.problems.append(ConfigProblem(where, where, "must be a list or a mapping"))
    return found


def _name_of(raw: Any, fallback: str) -> str:
    if isinstance(raw, MCPServerConfig):
        return raw.name
    name = raw.get("name") if isinstance(raw, dict) else None
    return name if isinstance(name, str) and name else fallback


def _validate(raw: Any) -> MCPServerConfig:
    return MCPServerConfig.model_validate(raw)


def _summary(exc: Exception) -> str:
    if not isinstance(exc, ValidationError):
        return str(exc)
    # Messages only: an error's `input` could hold an auth token.
    parts = []
    for error in exc.errors():
        loc = ".".join(str(part) for part in error["loc"])
        parts.append(f"{loc}: {error['msg']}" if loc else error["msg"])
    return "; ".join(parts)
