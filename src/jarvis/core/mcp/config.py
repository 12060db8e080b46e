"""MCP server settings: one `MCPServerConfig` per server (`mcp_servers`, JARVIS_MCP_SERVERS)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final, Literal, Self
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

MCP_SERVERS_SETTING = "JARVIS_MCP_SERVERS"

_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
# Like the built-ins' caps: a 2 MB file read must not reach the model whole.
RESULT_CHARS: Final = 25_000


class MCPConfigError(ValueError):
    """A server list that cannot be used; the message names the setting and the server."""


class MCPServerConfig(BaseModel):
    """How to reach one MCP server and what its tools need before they run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="Server name; the source of its tools (letters, digits, _ -).")
    transport: Literal["stdio", "sse", "http"] = Field(
        description="stdio (spawn `command`), sse (legacy HTTP+SSE) or http (streamable HTTP)."
    )
    command: list[str] = Field(default_factory=list, description="stdio: program and arguments.")
    env: dict[str, str] = Field(
        default_factory=dict,
        description="stdio: variables added to the child's minimal environment.",
    )
    network: bool = Field(
        False, description="stdio: the server may reach the network from inside the OS sandbox."
    )
    writable: list[str] = Field(
        default_factory=list,
        description="stdio: paths the sandboxed server may write besides the workspace "
        "(e.g. '~/.npm'; only existing ones).",
    )
    url: str | None = Field(None, description="sse/http: the server endpoint.")
    auth_token: SecretStr | None = Field(
        None, description="sse/http: sent as `Authorization: Bearer …` (wins over `headers`)."
    )
    headers: dict[str, str] = Field(default_factory=dict, description="sse/http: extra headers.")
    connect_timeout: float = Field(30.0, gt=0, description="Seconds for connect + first listing.")
    call_timeout: float = Field(
        120.0, gt=0, description="Seconds a call may stay silent (progress restarts the clock)."
    )
    tool_timeouts: dict[str, float] = Field(
        default_factory=dict, description="Per-tool call timeouts (the server's own tool names)."
    )
    auto_approve: list[str] = Field(
        default_factory=list,
        description="Tools (own names, or '*') that run without asking; every other tool asks, "
        "including ones the server adds later.",
    )
    replace_builtins: list[str] = Field(
        default_factory=list,
        description="Built-in tools this server's tools take over (hidden from the model).",
    )
    max_result_chars: int = Field(
        RESULT_CHARS, ge=1000, description="Longest text a call returns to the model."
    )

    @model_validator(mode="before")
    @classmethod
    def _legacy_keys(cls, data: Any) -> Any:
        """`timeout` sets both timeouts; `require_approval` lists failed open, so it is gone."""
        if not isinstance(data, dict) or not ({"timeout", "require_approval"} & data.keys()):
            return data
        data = dict(data)
        timeout = data.pop("timeout", None)
        if timeout is not None:
            data.setdefault("connect_timeout", timeout)
            data.setdefault("call_timeout", timeout)
        if "require_approval" in data and data.pop("require_approval") is not True:
            raise ValueError(
                "'require_approval' was replaced by 'auto_approve: [tool, ...]' "
                "(tools not listed ask first, including ones added later)"
            )
        return data

    def auto_approves(self, tool: str) -> bool:
        return "*" in self.auto_approve or tool in self.auto_approve

    def call_timeout_for(self, tool: str) -> float:
        return self.tool_timeouts.get(tool, self.call_timeout)

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        if not _NAME.match(name):
            raise ValueError(f"name {name!r} may only hold letters, digits, '_' and '-'")
        return name

    @model_validator(mode="after")
    def _fits_transport(self) -> Self:
        problem = _stdio_problem(self) if self.transport == "stdio" else _url_problem(self)
        if problem:
            raise ValueError(f"MCP server {self.name!r} ({self.transport}): {problem}")
        return self

    def http_headers(self) -> dict[str, str]:
        """The headers every HTTP request to the server carries."""
        headers = dict(self.headers)
        if self.auth_token is not None:
            headers["Authorization"] = f"Bearer {self.auth_token.get_secret_value()}"
        return headers


def _stdio_problem(config: MCPServerConfig) -> str | None:
    if not config.command or not config.command[0]:
        return "needs 'command', the program to run and its arguments"
    if config.url is not None:
        return "'url' is only for the sse and http transports"
    return None


def _url_problem(config: MCPServerConfig) -> str | None:
    if not config.url:
        return "needs 'url'"
    parts = urlsplit(config.url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"'url' must be an http:// or https:// address, got {config.url!r}"
    if config.command or config.env:
        return "'command' and 'env' are only for the stdio transport"
    return None


_SERVER_LIST = TypeAdapter(list[MCPServerConfig])


def parse_mcp_servers(text: str, setting: str = MCP_SERVERS_SETTING) -> list[MCPServerConfig]:
    """Read a JSON array of server objects; an empty text is no servers."""
    if not text.strip():
        return []
    try:
        configs = _SERVER_LIST.validate_json(text)
    except ValidationError as exc:
        raise MCPConfigError(f"{setting}: {_summary(exc)}") from exc
    check_unique_names(configs, setting)
    return configs


def check_unique_names(configs: Iterable[MCPServerConfig], setting: str = "mcp_servers") -> None:
    """Tools are owned by server name, so two servers may not share one."""
    seen: set[str] = set()
    for config in configs:
        if config.name in seen:
            raise MCPConfigError(f"{setting}: the server name {config.name!r} is used twice")
        seen.add(config.name)


def _summary(exc: ValidationError) -> str:
    # Messages only: an error's `input` could hold an auth token.
    return "; ".join(_one_error(error["loc"], error["msg"]) for error in exc.errors())


def _one_error(loc: tuple[int | str, ...], msg: str) -> str:
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
    return f"{path.lstrip('.')}: {msg}" if path else msg
