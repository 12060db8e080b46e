"""`jarvis chat` in a pseudo-terminal answering server-everything's elicitation form: a line
that does not fit the form is refused in one line and asked again, a fitting one reaches the
server (its tool result, which the model sees, repeats it), and `d` declines."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect

from tests.integration.cli.test_chat_pty import finish, scripted, spawn

ELICIT = {"tool_calls": [{"name": "everything__trigger-elicitation-request", "arguments": {}}]}


def _with_everything(home: Path, npm_bin: Path) -> None:
    server = {
        "command": str(npm_bin / "mcp-server-everything"),
        "args": ["stdio"],
        "auto_approve": ["trigger-elicitation-request"],
    }
    gone = {"command": str(home / "no-such-program")}
    servers = {"everything": server, "gone": gone}
    (home / "mcp.json").write_text(json.dumps({"mcpServers": servers}))


def _asked(child: pexpect.spawn) -> None:
    child.expect("❓ MCP server everything asks: Please provide inputs")
    child.expect(r"name \(required\): String")
    child.expect(r"untitledSingleSelectEnum: Untitled Single Select Enum \[Monica\|Rachel")
    child.expect(r"answer: key=value … \(d: decline\) › ")


def test_the_form_is_answered_refused_and_declined_in_the_terminal(
    npm_bin: Path, tmp_path: Path
) -> None:
    _with_everything(tmp_path, npm_bin)
    env = scripted(tmp_path, [ELICIT, "thanks, Ada", ELICIT, "fine, no details"])
    child = spawn(tmp_path, JARVIS_LANGUAGE="en", **env)
    # Servers connect in the background; the terminal says when each is ready, or why not.
    said: dict[str, str] = {}
    for _ in range(2):
        child.expect(r"🔌 MCP (\w+): ([^\r\n]+)")
        said[child.match.group(1)] = child.match.group(2)
    assert said["everything"].startswith("connected · "), said  # its tools exist from here on
    assert said["gone"].startswith("failed (retrying) · could not connect"), said

    child.sendline("sign me up")
    _asked(child)
    child.sendline("name=Ada check=maybe")
    child.expect(r"✗ check: yes or no, not 'maybe' — type it again \(d: decline\) › ")
    child.sendline("check=yes integer=500")
    child.expect(r"✗ integer: 500 is outside 1…100 — type it again")
    child.sendline("check=yes")
    child.expect(r"✗ required: name — type it again")
    child.sendline("name='Ada Lovelace' check=yes untitledSingleSelectEnum=Joey")
    child.expect("✓ everything__trigger-elicitation-request")
    child.expect("User provided the requested information")
    child.expect("- Name: Ada Lovelace")
    child.expect("- Agreed to terms: true")
    child.expect("thanks, Ada")

    child.sendline("once more")  # the same session goes on
    _asked(child)
    child.sendline("d")
    child.expect("✓ everything__trigger-elicitation-request")
    child.expect("User declined to provide the requested information")
    child.expect("fine, no details")
    rest = finish(child)
    assert "JARVIS · " not in rest  # no restart, no second session banner

    # What the model was given: the server's own words about each answer, in the session file.
    results = [
        json.loads(line)["message"]["content"]
        for path in (tmp_path / "sessions").glob("*.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines()
        if '"role":"tool"' in line.replace(" ", "")
    ]
    assert len(results) == 2, results
    assert (
        "- Name: Ada Lovelace" in results[0] and '"untitledSingleSelectEnum": "Joey"' in results[0]
    )
    assert '"action": "decline"' in results[1]
