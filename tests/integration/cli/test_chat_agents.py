"""`jarvis chat --agent`, `/agent`, `/orchestrate` and sub-agent work nested in the terminal: a
real process on the scripted model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.integration.cli.test_chat_cli import chat


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": tool, "arguments": arguments}]}


def home(tmp_path: Path, script: list[Any]) -> dict[str, str]:
    (tmp_path / "team").mkdir()
    (tmp_path / "team" / "karen.yaml").write_text(json.dumps({"name": "KAREN"}), "utf-8")
    (tmp_path / "agents").mkdir()
    reader = {"name": "reader", "description": "reads files", "tools": ["read_file"]}
    (tmp_path / "agents" / "reader.yaml").write_text(json.dumps(reader), "utf-8")
    (tmp_path / "notes.txt").write_text("the secret of the notes", "utf-8")
    (tmp_path / "script.json").write_text(json.dumps(script), "utf-8")
    return {
        "JARVIS_MODEL__PROVIDER": "faux",
        "JARVIS_MODEL__SCRIPT": str(tmp_path / "script.json"),
        "JARVIS_OPENLOOP__ENABLED": "false",
    }


def test_chat_with_a_team_agent_and_switch_agents(tmp_path: Path) -> None:
    env = home(tmp_path, ["KAREN here", "JARVIS here"])
    done = chat(
        tmp_path, ["hello", "/agent", "/agent main", "hi", "/exit"], "--agent", "karen", **env
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("KAREN · 세션")
    assert "KAREN here" in out and "JARVIS here" in out
    assert "* karen" in out and "  main" in out
    unknown = chat(tmp_path, ["/exit"], "--agent", "nobody", **env)
    assert unknown.returncode == 2 and "nobody" in unknown.stderr


def test_subagent_work_is_shown_nested_under_the_call(tmp_path: Path) -> None:
    script = [
        call("read_file", path="notes.txt"),  # /orchestrate market: the reader reads
        "reader: the notes hold a secret",
    ]
    env = home(tmp_path, script)
    done = chat(tmp_path, ["/orchestrate market read the notes", "/exit"], **env)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert '  ↳ main › reader ⚙ read_file {"path": "notes.txt"}' in out
    assert "  ↳ main › reader ✓ read_file" in out
    assert "reader: the notes hold a secret" in out


def test_two_subagents_asking_at_once_are_asked_one_after_the_other(tmp_path: Path) -> None:
    script = [
        call("bash", command="echo first-marker"),
        call("bash", command="echo second-marker"),
        "one finished",
        "another finished",
    ]
    env = home(tmp_path, script)
    for name in ("alpha", "beta"):
        spec = {"name": name, "tools": ["bash"]}
        (tmp_path / "agents" / f"{name}.yaml").write_text(json.dumps(spec), "utf-8")
    (tmp_path / "agents" / "reader.yaml").unlink()
    done = chat(tmp_path, ["/orchestrate blackboard print the markers", "a", "a", "/exit"], **env)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("main › alpha") >= 2 and out.count("main › beta") >= 2
    assert "first-marker" in out and "second-marker" in out
    assert "one finished" in out and "another finished" in out
    # The second request is asked only after the first is answered.
    asked = [i for i in range(len(out)) if out.startswith("⚡ 승인 요청", i)]
    answered = [i for i in range(len(out)) if out.startswith("✓ 허용", i)]
    assert len(asked) == 2 and asked[0] < answered[0] < asked[1] < answered[1]
