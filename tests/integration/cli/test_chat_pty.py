"""`jarvis chat` in a pseudo-terminal, as a person uses it: typed lines, keys, Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pexpect
import pytest

from tests.support.hang import HANG_GUARD_SEC

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def spawn(home: Path, *args: str, **env: str) -> pexpect.spawn:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home), **env)
    child = pexpect.spawn(
        JARVIS,
        ["chat", *args],
        env=environment,
        cwd=str(home),
        encoding="utf-8",
        timeout=HANG_GUARD_SEC,  # a hang guard, generous for a busy machine
        dimensions=(40, 120),
    )
    child.expect("JARVIS · ")
    return child


def finish(child: pexpect.spawn) -> str:
    """Quit with /exit; everything printed after the last expect."""
    child.sendline("/exit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


def test_a_reply_in_words_answers_the_approval(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--demo")
    child.sendline("!touch made-by-bash")
    child.expect("⚡ 승인 요청")
    child.expect("말로 답해도 됩니다")
    # Before: "n" was queued silently as the next prompt and the approval waited 120 s.
    child.sendline("n")
    child.expect("'n' → 거부")
    child.expect("승인이 거부되어 bash 실행을 멈췄습니다")
    child.sendline("!touch made-by-bash")
    child.expect("⚡ 승인 요청")
    child.sendline("응 실행해")
    child.expect("'응 실행해' → 허용")
    child.expect("✓ bash")
    finish(child)
    assert (tmp_path / "made-by-bash").exists()


def test_a_refusal_fused_to_the_verb_does_not_run_the_command(tmp_path: Path) -> None:
    # Issue 23: "실행안해" ("not running it") printed "→ 허용" and the file was created.
    child = spawn(tmp_path, "--demo")
    for reply in ("실행안해", "yes👎", "승인불가"):
        child.sendline("!touch refused-in-words")
        child.expect("⚡ 승인 요청")
        child.expect("말로 답해도 됩니다")
        child.sendline(reply)
        child.expect(f"'{reply}' → 거부")
        child.expect("승인이 거부되어 bash 실행을 멈췄습니다")
    finish(child)
    assert not (tmp_path / "refused-in-words").exists()


def test_an_unclear_reply_keeps_the_approval_waiting(tmp_path: Path) -> None:
    # The demo's scripted model is no classifier: whatever the keywords cannot tell is unclear.
    child = spawn(tmp_path, "--demo")
    child.sendline("!touch maybe")
    child.expect("⚡ 승인 요청")
    child.sendline("그거 돌려")
    child.expect("알아듣지 못했습니다. 아직 기다립니다")
    child.sendline("d")
    child.expect("승인이 거부되어 bash 실행을 멈췄습니다")
    finish(child)
    assert not (tmp_path / "maybe").exists()


def test_a_bare_enter_at_an_approval_answers_nothing(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--demo")
    child.sendline("!touch entered")
    child.expect("⚡ 승인 요청")
    child.sendline("")  # was: allow once
    child.sendline("d")
    child.expect("승인이 거부되어 bash 실행을 멈췄습니다")
    finish(child)
    assert not (tmp_path / "entered").exists()


@pytest.mark.parametrize(
    "env",
    [
        {"JARVIS_LANGUAGE": "en"},
        # No language setting: the terminal's locale decides (before, Korean for everyone).
        {"LANG": "en_US.UTF-8"},
        {"LANG": "ko_KR.UTF-8", "LC_ALL": "en_GB.UTF-8"},  # LC_ALL wins, as in POSIX
    ],
    ids=["setting", "LANG", "LC_ALL"],
)
def test_the_english_terminal_speaks_english(tmp_path: Path, env: dict[str, str]) -> None:
    child = spawn(tmp_path, "--demo", **env)
    banner = str(child.buffer) + str(child.after)
    child.expect("Ctrl-D to quit")
    child.sendline("!echo words-ok")
    child.expect("⚡ Approval needed")
    child.expect(r"\[a = allow once · A = always · d = deny · or answer in words\]")
    prompt_lines = str(child.before)
    child.sendline("ok go")
    child.expect("'ok go' → allowed")
    child.expect("words-ok")
    child.sendline("/help")
    child.expect("Commands:")
    child.expect("answer in words")
    assert not HANGUL.search(banner + prompt_lines), banner + prompt_lines
    finish(child)


def test_a_language_setting_wins_over_the_locale(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="ko", LANG="en_US.UTF-8")
    child.expect("Ctrl-D")
    banner = str(child.before)
    finish(child)
    assert HANGUL.search(banner), banner


def scripted(
    home: Path, answers: list[object], judge: list[object] | None = None
) -> dict[str, str]:
    """Environment for a scripted main model (and AGENDA judge, off unless given)."""
    (home / "script.json").write_text(json.dumps(answers), encoding="utf-8")
    env = {"JARVIS_MODEL__PROVIDER": "faux", "JARVIS_MODEL__SCRIPT": str(home / "script.json")}
    if judge is None:
        env["JARVIS_OPENLOOP__ENABLED"] = "false"
    else:
        (home / "judge.json").write_text(json.dumps(judge), encoding="utf-8")
        env["JARVIS_OPENLOOP__MODEL__PROVIDER"] = "faux"
        env["JARVIS_OPENLOOP__MODEL__SCRIPT"] = str(home / "judge.json")
    return env


def test_answers_are_rendered_markdown_and_tools_are_blocks(tmp_path: Path) -> None:
    answer = "# Plan\n\nThis is **important** and `code`.\n\n```python\nprint('hi')\n```\n"
    listing = {"tool_calls": [{"name": "list_dir", "arguments": {"path": "."}}]}
    (tmp_path / "notes.txt").write_text("x")
    child = spawn(tmp_path, **scripted(tmp_path, [answer, listing, "done"]))
    child.sendline("plan?")
    child.expect("important")
    rendered = str(child.before) + str(child.after)
    child.expect("› ")  # the next prompt: the whole answer is above it
    rendered += str(child.before)
    assert "**important**" not in rendered and "```" not in rendered  # Markdown, not its source
    assert "\x1b[1m" in rendered  # bold
    child.sendline("files?")
    child.expect("⚙ list_dir")
    child.expect("path: .")
    child.expect("✓ list_dir")
    child.expect("notes.txt")  # the first lines of the result, under the block
    finish(child)


def test_log_warnings_stay_off_the_prompt_line(tmp_path: Path) -> None:
    failing_judge = [{"error": "judge exploded", "error_kind": "other"}]
    child = spawn(tmp_path, **scripted(tmp_path, ["hello there"], judge=failing_judge))
    child.sendline("remind me to call mom tomorrow")  # a cue of later work: the judge runs
    child.expect("hello there")
    seen = str(child.before) + str(child.after)
    seen += finish(child)  # the judge runs beside or after the reply: the notice may follow it
    assert seen.count("경고가 있습니다. 자세한 내용: ") == 1
    assert str(tmp_path / "logs" / "chat.log") in seen
    assert "WARNING" not in seen and "judge exploded" not in seen
    log = (tmp_path / "logs" / "chat.log").read_text(encoding="utf-8")
    assert "judge exploded" in log
