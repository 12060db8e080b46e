"""`jarvis thinking route --json -`: one JSON object per input line, whatever the line holds."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from jarvis.common.jsonl import json_line


@pytest.mark.parametrize("breaker", ["\u2028", "\u2029", "\u0085"])
def test_json_line_escapes_what_readers_take_for_line_breaks(breaker: str) -> None:
    line = json_line({"text": f"a{breaker}b", "ko": "한국어"})
    assert breaker not in line and "한국어" in line
    assert len(line.splitlines()) == 1
    assert json.loads(line) == {"text": f"a{breaker}b", "ko": "한국어"}


def test_route_cli_answers_each_line_with_one_object() -> None:
    lines = [
        "thanks!",
        "배포가 실패하는데 원인을 찾아서 고치는 계획을 세워줘",
        "why does it\u2028fail\u2029and\u0085how?",  # one input line for the CLI (it splits on \n)
        "/stop",
        "",
        '{"think": true}',
    ]
    done = subprocess.run(
        [sys.executable, "-m", "jarvis.ui.cli.main", "thinking", "route", "--json", "-"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    out = done.stdout.split("\n")
    assert out[-1] == "" and len(out) - 1 == len(lines)  # one line per input line, no more
    assert all(len(row.splitlines()) == 1 for row in out[:-1])
    rows = [json.loads(row) for row in out[:-1]]
    assert all(set(row) == {"think", "p_think", "reason"} for row in rows)
    assert rows[0] == {"think": False, "p_think": 0.0, "reason": "acknowledgement"}
    assert rows[1]["think"] is True and rows[1]["reason"].startswith("model:")
    assert rows[3]["reason"] == "slash_command"
    assert rows[4]["think"] is False
