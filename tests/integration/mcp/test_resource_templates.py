"""Resource templates (`resources/templates/list`) of the published server-everything: listed
next to its resources (core and `jarvis mcp list`), named in `read_resource`'s description, and
read through a URI made from a template."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from typer.testing import CliRunner

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp import MCPManager
from jarvis.core.tools.registry import ToolRegistry
from jarvis.ui.cli.main import app
from tests.integration.mcp.conftest import stdio_config, wait_for
from tests.integration.mcp.test_everything_server import everything

Call = Callable[..., Awaitable[ToolResult]]
TEXT_TEMPLATE = "demo://resource/dynamic/text/{resourceId}"


async def test_templates_are_listed_described_and_read(
    npm_bin: Path, manager: MCPManager, registry: ToolRegistry, call: Call
) -> None:
    await manager.start([everything(npm_bin), stdio_config("demo")])
    await manager.wait_ready()

    catalog = await manager.resources("everything")
    assert TEXT_TEMPLATE in [t.uri_template for t in catalog.templates]
    assert catalog.resources  # the plain resources are still there
    assert catalog.as_dict()["templates"][0]["uri_template"].startswith("demo://")
    empty = await manager.resources("demo")  # no resources capability: nothing, no error
    assert (empty.resources, empty.templates) == ([], [])

    # The templates are fetched after the connect; then the model is told about them.
    def described() -> bool:
        tool = registry.get("read_resource")
        return tool is not None and TEXT_TEMPLATE in tool.description

    await wait_for(described)
    made = await call(
        "read_resource", server="everything", uri=TEXT_TEMPLATE, arguments={"resourceId": "7"}
    )
    concrete = await call(
        "read_resource", server="everything", uri="demo://resource/dynamic/text/8"
    )
    unfilled = await call("read_resource", server="everything", uri=TEXT_TEMPLATE)

    assert not made.is_error and "Resource 7: This is a plaintext resource" in made.content
    assert not concrete.is_error and "Resource 8: This is a plaintext resource" in concrete.content
    assert unfilled.is_error
    assert unfilled.content == "the URI template needs resourceId (give them in 'arguments')"


def test_mcp_list_shows_resources_and_templates(npm_bin: Path, tmp_path: Path) -> None:
    env = {"JARVIS_HOME": str(tmp_path), "JARVIS_LANGUAGE": "en"}
    runner = CliRunner()
    command = ["mcp", "add", "everything", "--", str(npm_bin / "mcp-server-everything"), "stdio"]
    assert runner.invoke(app, command, env=env).exit_code == 0

    listed = runner.invoke(app, ["mcp", "list"], env=env)

    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    counts = next(line for line in lines if "URI templates" in line)
    assert counts.strip().endswith("resources · 2 URI templates"), counts
    assert f"           {TEXT_TEMPLATE}  Dynamic Text Resource" in lines
