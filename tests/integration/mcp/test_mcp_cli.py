"""`jarvis mcp add|list|remove|reconnect` on a real data dir, `list` against the demo server."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

from typer.testing import CliRunner

from jarvis.ui.cli.main import app
from tests.integration.mcp.conftest import DEMO_SCRIPT


def run(home: Path, *args: str) -> tuple[int, str]:
    env = {"JARVIS_HOME": str(home), "JARVIS_LANGUAGE": "en"}
    result = CliRunner().invoke(app, ["mcp", *args], env=env)
    return result.exit_code, result.output


def test_add_list_remove(tmp_path: Path) -> None:
    code, _ = run(tmp_path, "add", "demo", "--", sys.executable, str(DEMO_SCRIPT), "--prefix", "")
    assert code == 0
    code, _ = run(tmp_path, "add", "remote", "--url", "http://127.0.0.1:9/mcp", "--header", "X-A=1")
    assert code == 0
    saved = json.loads((tmp_path / "mcp.json").read_text(encoding="utf-8"))
    assert saved["mcpServers"]["demo"]["command"] == sys.executable
    assert saved["mcpServers"]["remote"] == {
        "url": "http://127.0.0.1:9/mcp",
        "headers": {"X-A": "1"},
    }
    assert stat.S_IMODE((tmp_path / "mcp.json").stat().st_mode) == 0o600

    code, listed = run(tmp_path, "list")

    assert code == 0, listed
    lines = listed.splitlines()
    assert lines[0].startswith("ok  mcp    demo") and "connected · 9 tools" in lines[0]
    assert "         demo__echo  Echo the text back." in lines
    remote = next(line for line in lines if " remote " in line)
    assert remote.startswith("ERR") and "failed (retrying)" in remote
    assert any("last error: could not connect (ConnectError" in line for line in lines)

    assert run(tmp_path, "remove", "remote")[0] == 0
    saved = json.loads((tmp_path / "mcp.json").read_text(encoding="utf-8"))
    assert list(saved["mcpServers"]) == ["demo"]
    assert run(tmp_path, "remove", "remote")[0] == 1


def test_reconnect_leaves_a_request_for_the_running_app(tmp_path: Path) -> None:
    code, out = run(tmp_path, "reconnect", "demo")

    assert code == 0 and "demo" in out
    assert (tmp_path / "mcp-reconnect").read_text(encoding="utf-8") == "demo"
