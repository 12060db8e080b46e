"""Prompt argument completion (`completion/complete`) against the published server-everything,
and a server without the capability (the SDK demo server) completing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.mcp import MCPManager
from tests.integration.mcp.conftest import stdio_config
from tests.integration.mcp.test_everything_server import everything


async def test_prompts_and_argument_values_come_from_the_server(
    npm_bin: Path, manager: MCPManager
) -> None:
    await manager.start([everything(npm_bin), stdio_config("demo")])
    await manager.wait_ready()

    prompts = {p.as_dict()["command"]: p for p in await manager.prompts()}
    team = prompts["/everything:completable-prompt"]
    assert [a.name for a in team.arguments] == ["department", "name"]
    assert all(command.startswith("/everything:") for command in prompts)  # demo has none

    departments = await manager.complete("everything", "completable-prompt", "department", "", {})
    assert departments == ["Engineering", "Sales", "Marketing", "Support"]
    assert await manager.complete("everything", "completable-prompt", "department", "S", {}) == [
        "Sales",
        "Support",
    ]
    # The second argument's values depend on the first one (sent as context).
    people = await manager.complete(
        "everything", "completable-prompt", "name", "", {"department": "Engineering"}
    )
    assert people == ["Alice", "Bob", "Charlie"]
    assert await manager.complete("everything", "completable-prompt", "name", "", {}) == []


async def test_a_server_without_completions_completes_nothing(manager: MCPManager) -> None:
    await manager.start([stdio_config("demo")])
    await manager.wait_ready()
    assert manager.status()[0].ok

    assert await manager.complete("demo", "anything", "arg", "a", {}) == []
    with pytest.raises(KeyError):
        await manager.complete("nobody", "anything", "arg", "a", {})
