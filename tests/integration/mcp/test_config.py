"""Server settings: validation messages and the JARVIS_MCP_SERVERS parser."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from jarvis.core.mcp import MCPConfigError, MCPServerConfig, parse_mcp_servers


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "a b", "transport": "stdio", "command": ["x"]}, "may only hold letters"),
        ({"name": "s", "transport": "stdio"}, "'s' (stdio): needs 'command'"),
        ({"name": "s", "transport": "stdio", "command": ["x"], "url": "http://h"}, "'url' is only"),
        ({"name": "h", "transport": "http"}, "'h' (http): needs 'url'"),
        ({"name": "h", "transport": "sse", "url": "ftp://h/sse"}, "must be an http:// or https://"),
        (
            {"name": "h", "transport": "http", "url": "http://h", "command": ["x"]},
            "only for the stdio",
        ),
        ({"name": "w", "transport": "websocket", "url": "ws://h"}, "'stdio', 'sse' or 'http'"),
        ({"name": "t", "transport": "stdio", "command": ["x"], "timeout": 0}, "greater than 0"),
        ({"name": "t", "transport": "stdio", "command": ["x"], "comand": ["y"]}, "not permitted"),
    ],
)
def test_invalid_configs_say_what_is_wrong(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        MCPServerConfig(**fields)


def test_the_seed_examples_parse() -> None:
    text = """[
      {"name": "filesystem", "transport": "stdio",
       "command": ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"],
       "timeout": 30.0},
      {"name": "remote-api", "transport": "http", "url": "https://mcp.example.com/mcp",
       "auth_token": "sk-secret", "headers": {"X-Org": "acme"}, "auto_approve": ["status"]}
    ]"""

    local, remote = parse_mcp_servers(text)

    assert (local.name, local.command[0], local.auto_approve) == ("filesystem", "npx", [])
    assert (local.connect_timeout, local.call_timeout) == (30.0, 30.0)  # `timeout` sets both
    assert remote.http_headers() == {"X-Org": "acme", "Authorization": "Bearer sk-secret"}
    assert remote.auto_approves("status") and not remote.auto_approves("deploy")
    assert "sk-secret" not in repr(remote)


def test_an_empty_setting_is_no_servers() -> None:
    assert parse_mcp_servers("  ") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", r"^JARVIS_MCP_SERVERS: Invalid JSON"),
        ('{"name": "x"}', r"^JARVIS_MCP_SERVERS: Input should be a valid (list|array)"),
        ('[{"name": "x", "transport": "stdio"}]', r"^JARVIS_MCP_SERVERS: \[0\]: .*needs 'command'"),
        (
            '[{"name": "x", "transport": "http", "url": "http://h", "timeout": "soon"}]',
            r"^JARVIS_MCP_SERVERS: \[0\]\.connect_timeout: Input should be a valid number",
        ),
        (
            '[{"name": "x", "transport": "http", "url": "http://a"},'
            ' {"name": "x", "transport": "http", "url": "http://b"}]',
            r"^JARVIS_MCP_SERVERS: the server name 'x' is used twice",
        ),
    ],
)
def test_bad_setting_text_names_the_setting(text: str, message: str) -> None:
    with pytest.raises(MCPConfigError, match=message):
        parse_mcp_servers(text)


def test_errors_never_echo_the_auth_token() -> None:
    text = '[{"name": "x", "transport": "http", "auth_token": "sk-secret"}]'

    with pytest.raises(MCPConfigError) as caught:
        parse_mcp_servers(text)

    assert "sk-secret" not in str(caught.value)


@pytest.mark.parametrize("value", [False, ["deploy"]])
def test_require_approval_lists_are_refused_since_they_fail_open(value: Any) -> None:
    config = {"name": "x", "transport": "http", "url": "http://h", "require_approval": value}

    with pytest.raises(ValidationError, match="replaced by 'auto_approve"):
        MCPServerConfig(**config)


def test_require_approval_true_is_the_default_and_still_accepted() -> None:
    config = MCPServerConfig(name="x", transport="http", url="http://h", require_approval=True)

    assert config.auto_approve == []
