"""The model-facing names of MCP tools: valid for model APIs, stable, collision-free, reversible."""

from __future__ import annotations

import pytest

from jarvis.core.mcp.names import VALID_NAME, NameTable, exposed_name

LONG = "t" * 128


@pytest.mark.parametrize(
    ("server", "tool", "expected"),
    [
        ("fs", "read_file", "fs__read_file"),
        ("everything", "get-sum", "everything__get-sum"),
        ("git", "git.status", "git__git_status_4132a4e4"),
        ("api", "users/list", "api__users_list_8fb4b2de"),
        ("api", "users.list", "api__users_list_e4a5fd19"),
        ("s", "café", "s__caf__b3c47802"),
        ("srv", LONG, f"srv__{'t' * 50}_c57ca364"),
    ],
    ids=["plain", "dash", "dot", "slash", "dot-vs-slash", "non-ascii", "too-long"],
)
def test_names_fit_the_model_apis_and_are_stable(server: str, tool: str, expected: str) -> None:
    name = exposed_name(server, tool)

    assert VALID_NAME.match(name)
    assert name == expected
    assert exposed_name(server, tool) == name  # no state: the same every start


def test_cleaned_names_never_meet_a_plain_one() -> None:
    tools = ["a.b", "a/b", "a_b", "a b", LONG, LONG + "x"]

    table = NameTable("srv", tools)

    exposed = [table.exposed(tool) for tool in tools]
    assert len(set(exposed)) == len(tools)
    assert all(VALID_NAME.match(name) for name in exposed)
    assert [table.tool(name) for name in exposed] == tools
    assert table.tool("srv__unknown") is None


def test_the_same_tool_on_two_servers_gets_two_names() -> None:
    assert exposed_name("first", "echo") != exposed_name("second", "echo")
