"""`jarvis chat` in a pseudo-terminal completes a connected server's prompt command with Tab
(`/everything:args` → `/everything:args-prompt`), and the completed command runs the prompt."""

from __future__ import annotations

from pathlib import Path

from tests.integration.cli.test_chat_pty import finish, scripted, spawn
from tests.integration.mcp.test_terminal_elicitation import _with_everything


def test_tab_completes_a_server_prompt_command(npm_bin: Path, tmp_path: Path) -> None:
    _with_everything(tmp_path, npm_bin)
    child = spawn(tmp_path, JARVIS_LANGUAGE="en", **scripted(tmp_path, ["noted"]))
    child.expect("🔌 MCP everything: connected")
    child.expect("› ")
    child.send("/everything:args\t")  # the server is asked for its prompts when Tab is pressed
    child.expect("-prompt")  # drawn once completed
    child.sendline(" Seoul")
    child.expect("noted")
    finish(child)
    sent = "".join(path.read_text("utf-8") for path in (tmp_path / "sessions").glob("*.jsonl"))
    assert "What's weather in Seoul" in sent  # the server's prompt, expanded
