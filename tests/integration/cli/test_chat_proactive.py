"""Speaking first in `jarvis chat` (a pseudo-terminal): a proactive line says how to answer it,
and `/good`, `/bad`, `/doit` answer the last one — "do it" is an ordinary turn that waits at the
tool gate like any other."""

from __future__ import annotations

import json
import time
from pathlib import Path

from jarvis.core.scheduler.definitions import Goal, GoalLogEntry, save_goal
from tests.browser.hud_pages import bash
from tests.integration.cli.test_chat_pty import finish, spawn
from tests.integration.thinking.test_speaking_first import HIGH

SAID = "The Q3 report draft is done. Shall we go through it?"


def env(home: Path) -> dict[str, str]:
    reflection = [{"kind": "follow_up", "utterance": SAID, "topic": "q3", "ratings": HIGH}]
    script = [json.dumps(reflection), bash("touch done.txt"), "ok."]
    (home / "script.json").write_text(json.dumps(script), encoding="utf-8")
    settings = {
        "MODEL__PROVIDER": "faux",
        "MODEL__MODEL": "faux",
        "MODEL__SCRIPT": str(home / "script.json"),
        "OPENLOOP__ENABLED": "false",
        "PROCEDURES__LEARN": "false",
        "PROCEDURES__REFLECT": "false",
        "THINKING__PROACTIVE__ENABLED": "true",
        # never quiet hours, whenever the test runs (start == end: no quiet hour)
        "THINKING__PROACTIVE__QUIET_START": "0",
        "THINKING__PROACTIVE__QUIET_END": "0",
        "SCHEDULER__TICK_SEC": "0.2",
        "LANGUAGE": "en",
    }
    return {"LANG": "en_US.UTF-8", **{f"JARVIS_{key}": value for key, value in settings.items()}}


def test_good_bad_and_doit_answer_the_last_proactive_line(tmp_path: Path) -> None:
    child = spawn(tmp_path, **env(tmp_path))
    child.sendline("/good")
    child.expect("Jarvis has not said anything first yet.")
    # a goal finishes while the chat is open: the speaker's next tick says something first
    goal = Goal(id="q3-report", objective="Write the Q3 report draft", status="done")
    goal.log = [GoalLogEntry(ts_ms=int(time.time() * 1000), turn=1, text="[DONE] draft written")]
    save_goal(tmp_path, goal)
    child.expect(SAID)
    child.expect(r"\(/good · /bad · /doit\)")
    child.sendline("/good")
    child.expect("👍 noted")
    child.sendline("/bad")
    child.expect("That message was answered already")  # one message counts once
    state = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert state["learner"]["kinds"]["follow_up"] == {"counts": {"thumbs_up": 1}, "moves": []}
    assert state["said"][0]["feedback"] == "thumbs_up"
    child.sendline("/doit")
    # its prompt runs as an ordinary turn: the tool call waits for approval like any other
    child.expect("touch done.txt")
    assert not (tmp_path / "done.txt").exists()
    child.sendline("n")
    child.expect("denied")
    finish(child)
    assert not (tmp_path / "done.txt").exists()
    # the turn was the person's ordinary message "Yes, please do it: …" in the session history
    history = "".join(p.read_text() for p in (tmp_path / "sessions").rglob("*.jsonl"))
    assert "Yes, please do it: " + SAID in history
