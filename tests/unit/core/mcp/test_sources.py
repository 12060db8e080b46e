"""Server entries from config.yaml, JARVIS_MCP_SERVERS and mcp.json: both forms, ${VAR}, and a
broken entry reported by its place instead of stopping the others."""

from __future__ import annotations

from typing import Any

import pytest

from jarvis.core.mcp.sources import MissingVariable, collect, expand, from_desktop


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            {"command": "npx", "args": ["-y", "pkg"], "env": {"K": "v"}},
            {"name": "s", "transport": "stdio", "command": ["npx", "-y", "pkg"], "env": {"K": "v"}},
        ),
        (
            {"url": "https://h/mcp", "headers": {"X": "1"}},
            {"name": "s", "transport": "http", "url": "https://h/mcp", "headers": {"X": "1"}},
        ),
        ({"url": "https://h/sse"}, {"name": "s", "transport": "sse", "url": "https://h/sse"}),
        (
            {"type": "streamable-http", "url": "https://h/sse"},
            {"name": "s", "transport": "http", "url": "https://h/sse"},
        ),
        (
            {"command": "x", "auto_approve": ["read"]},
            {"name": "s", "transport": "stdio", "command": ["x"], "auto_approve": ["read"]},
        ),
        ({"command": "x", "disabled": True}, None),
    ],
    ids=["stdio", "http", "sse-by-path", "type-wins", "own-keys", "disabled"],
)
def test_claude_desktop_entries(entry: dict[str, Any], expected: dict[str, Any] | None) -> None:
    assert from_desktop("s", entry) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bearer ${TOKEN}", "Bearer t0k"),
        ("${NOPE:-fallback}", "fallback"),
        ("${TOKEN:-unused}/x", "t0k/x"),
        ("no vars", "no vars"),
    ],
)
def test_variables_expand(text: str, expected: str) -> None:
    assert expand(text, {"TOKEN": "t0k"}) == expected


def test_a_missing_variable_is_named() -> None:
    with pytest.raises(MissingVariable, match="NOPE is not set"):
        expand({"headers": {"A": "${NOPE}"}}, {})


def test_broken_entries_are_reported_by_place_and_the_rest_still_load() -> None:
    found = collect(
        ("config.yaml: mcp_servers", [{"name": "ok", "transport": "stdio", "command": ["x"]},
                                      {"name": "bad", "transport": "stdio"}]),
        ("mcp.json: mcpServers", {"remote": {"url": "https://h/mcp", "headers": {"A": "${NOPE}"}},
                                  "odd": {"colour": "blue"}, "ok2": {"command": "y"}}),
    )  # fmt: skip

    assert [c.name for c in found.configs] == ["ok", "ok2"]
    problems = {p.name: (p.where, p.error) for p in found.problems}
    assert problems["bad"][0] == "config.yaml: mcp_servers[1]"
    assert "needs 'command'" in problems["bad"][1]
    assert problems["remote"] == (
        "mcp.json: mcpServers.remote",
        "environment variable NOPE is not set",
    )
    assert problems["odd"] == ("mcp.json: mcpServers.odd", "unknown keys: colour")
