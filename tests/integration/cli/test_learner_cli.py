"""The feedback learner from a real `jarvis` process: "stop telling me about X" typed in `jarvis
chat` mutes it with one line back, `/learner` shows it; `jarvis thinking learner [--json]` shows
what was learned (a file from before the answers were counted apart reads as 👍 / 👎), and
`jarvis thinking learner reset` forgets a topic, a kind or everything. `/bad` that mutes a topic
says so."""

from __future__ import annotations

import json
from pathlib import Path

from tests.integration.cli.test_chat_cli import chat, jarvis

OLD_FILE = {
    "day": "",
    "used_today": 0,
    "learner": {
        "kinds": {"reminder": {"accepted": 3, "rejected": 1}},
        "dismissals": {"crypto": 1},
        "muted_until_ms": {},
    },
    "said": [
        {
            "message_id": "proactive:main:abc",
            "user_id": "local",
            "kind": "news",
            "topic": "crypto",
            "text": "Bitcoin is up 5%",
            "at_ms": 0,
        }
    ],
}


def test_stop_in_chat_then_view_and_reset_from_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "proactive").mkdir()
    (tmp_path / "proactive" / "main.json").write_text(json.dumps(OLD_FILE), encoding="utf-8")
    env = {"JARVIS_LANGUAGE": "en", "JARVIS_THINKING__PROACTIVE__ENABLED": "true"}
    lines = ["/bad", "stop telling me about the weather", "/learner", "/exit"]
    done = chat(tmp_path, lines, "--demo", **env)
    assert done.returncode == 0, done.stderr
    # the second 👎 on "crypto" mutes it, and the reply says so
    assert "👎 noted; fewer like this: Bitcoin is up 5%" in done.stdout
    assert "🔇 I won't bring up “crypto” first until" in done.stdout
    assert "(Undo: /learner unmute crypto)" in done.stdout
    assert "I haven't brought up “weather” first yet" in done.stdout
    assert "reminder: 👍 3 · 👎 1 · do it 0 · replies 0 · ignored 0" in done.stdout  # /learner
    assert "🔇 weather — until" in done.stdout

    shown = jarvis(tmp_path, "thinking", "learner", "--json")
    assert shown.returncode == 0, shown.stderr
    (view,) = [json.loads(line) for line in shown.stdout.splitlines()]
    assert view["agent_id"] == "main"
    assert [m["topic"] for m in view["muted"]] == ["crypto", "weather"]
    reminder = next(k for k in view["kinds"] if k["kind"] == "reminder")
    assert reminder["counts"]["thumbs_up"] == 3 and reminder["threshold"] == 0.7

    again = jarvis(tmp_path, "thinking", "learner", "reset", "--topic", "weather")
    # (the plain `jarvis` commands speak the setting's language: Korean by default)
    assert again.returncode == 0 and "‘weather’ 얘기를 다시 할 수 있어요" in again.stdout
    unknown = jarvis(tmp_path, "thinking", "learner", "reset", "--kind", "follow_up")
    assert unknown.returncode == 1 and "그런 종류나 조용히 한 주제가 없어요" in unknown.stdout
    kind = jarvis(tmp_path, "thinking", "learner", "reset", "--kind", "reminder")
    assert kind.returncode == 0 and "‘reminder’에서 배운 것을 지웠어요" in kind.stdout
    everything = jarvis(tmp_path, "thinking", "learner", "reset")
    assert everything.returncode == 0 and "배운 것을 모두 지웠어요" in everything.stdout
    text = jarvis(tmp_path, "thinking", "learner", "--agent", "main")
    assert "main — 먼저 말하기에서 배운 것" in text.stdout
    assert "아직 배운 것이 없어요" in text.stdout, text.stdout
