"""JSON Lines output: one record is one line for every line-based reader (issue 23)."""

from __future__ import annotations

import json

import pytest

from jarvis.common.jsonl import json_line, one_line

# Every character `str.splitlines` splits on (JavaScript's line terminators are among them).
BREAKS = ["\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("brk", BREAKS)
def test_a_line_break_in_any_string_stays_inside_one_line(brk: str) -> None:
    value = {f"key{brk}": [f"a{brk}b", {"deep": brk * 3}], "plain": "한글 ✓"}
    line = json_line(value)
    assert line.splitlines() == [line]
    assert json.loads(line) == value
    assert "한글 ✓" in line  # readable text is not escaped


def test_an_already_dumped_text_gets_the_same_treatment() -> None:
    text = '{"tool":"a\u2028b\u0085c\u2029d"}'  # pydantic's model_dump_json leaves them raw
    assert len(text.splitlines()) == 4
    line = one_line(text)
    assert line.splitlines() == [line]
    assert json.loads(line) == json.loads(text)
