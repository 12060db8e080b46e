"""The history window moves in blocks: which earlier turns are sent with turn N."""

from __future__ import annotations

import pytest

from jarvis.memory import MemorySettings
from jarvis.memory.window import (
    ANSWER_CHARS,
    WORDS_CHARS,
    carried_block,
    carried_line,
    carried_turns,
    first_shown_turn,
)
from jarvis.model_layer.messages import (
    AssistantMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)


def shown(turn: int, keep: int = 3, block: int = 5) -> list[int]:
    return list(range(first_shown_turn(turn, keep, block), turn))


@pytest.mark.parametrize(
    ("turn", "earlier"),
    [
        (1, []),
        (2, [1]),
        (4, [1, 2, 3]),
        (8, [1, 2, 3, 4, 5, 6, 7]),  # full: 3 + 5 - 1
        (9, [6, 7, 8]),  # the oldest 5 dropped at once
        (10, [6, 7, 8, 9]),
        (13, [6, 7, 8, 9, 10, 11, 12]),
        (14, [11, 12, 13]),
        (2000, [1996, 1997, 1998, 1999]),
    ],
)
def test_the_default_window_keeps_three_to_seven_turns_and_cuts_five(
    turn: int, earlier: list[int]
) -> None:
    assert shown(turn) == earlier
    assert shown(turn) == list(range(MemorySettings().first_shown_turn(turn), turn))


@pytest.mark.parametrize(
    ("keep", "block", "turn", "earlier"),
    [
        (3, 1, 5, [2, 3, 4]),  # block 1: the window slides every turn (the seed's last 3)
        (3, 1, 3, [1, 2]),
        (0, 1, 5, []),  # no history
        (0, 5, 5, [1, 2, 3, 4]),
        (0, 5, 6, []),
        (2, 3, 6, [4, 5]),
    ],
)
def test_other_settings(keep: int, block: int, turn: int, earlier: list[int]) -> None:
    assert shown(turn, keep, block) == earlier


@pytest.mark.parametrize(("keep", "block"), [(3, 5), (3, 1), (1, 4), (5, 10), (0, 2)])
def test_between_cuts_the_window_only_grows_and_never_shows_fewer_than_keep(
    keep: int, block: int
) -> None:
    for turn in range(2, 400):
        before, now = shown(turn - 1, keep, block), shown(turn, keep, block)
        assert min(keep, turn - 1) <= len(now) <= keep + block - 1
        moved = first_shown_turn(turn, keep, block) - first_shown_turn(turn - 1, keep, block)
        if moved == 0:  # append-only: the previous window, plus the previous turn
            assert now == [*before, turn - 1]
        else:  # a cut drops exactly one block, at turns fixed by the turn number alone
            assert moved == block and len(now) == keep


def test_a_turn_number_of_zero_shows_nothing() -> None:
    assert first_shown_turn(0, 3, 5) == 0
    with pytest.raises(ValueError):
        first_shown_turn(5, 3, 0)


@pytest.mark.parametrize(
    ("turn", "carried", "whole"),
    [
        (8, [], [1, 2, 3, 4, 5, 6, 7]),  # before the first cut: every turn whole
        (9, [6, 7, 8], []),  # the cut: the 3 it kept, one line each
        (10, [6, 7, 8], [9]),
        (13, [6, 7, 8], [9, 10, 11, 12]),
        (14, [11, 12, 13], []),
        (2000, [1996, 1997, 1998], [1999]),
    ],
)
def test_a_cut_carries_the_turns_it_kept_as_lines(
    turn: int, carried: list[int], whole: list[int]
) -> None:
    settings = MemorySettings()
    assert list(carried_turns(turn, 3, 5)) == carried == list(settings.carried_turns(turn))
    first = settings.first_shown_turn(turn)
    assert [n for n in range(first, turn) if n not in carried] == whole


def test_cut_keeps_turns_and_a_sliding_window_carry_nothing() -> None:
    assert list(MemorySettings(cut_keeps="turns").carried_turns(9)) == []
    assert list(carried_turns(9, 3, 1)) == []  # block 1: the plain last 3, whole
    assert list(carried_turns(6, 0, 5)) == []  # keep 0: nothing kept, nothing carried


@pytest.mark.parametrize(("keep", "block"), [(3, 5), (1, 4), (5, 10)])
def test_the_carried_turns_change_only_at_a_cut(keep: int, block: int) -> None:
    for turn in range(2, 300):
        cut = first_shown_turn(turn, keep, block) != first_shown_turn(turn - 1, keep, block)
        if not cut:
            assert carried_turns(turn, keep, block) == carried_turns(turn - 1, keep, block)


def test_a_carried_line_has_the_words_the_tools_and_the_answer_cut_short() -> None:
    call = ToolCall(id="c1", name="read_file", arguments={"path": "a.txt"})
    turn = [
        UserMessage(content="what does   a.txt\nsay?"),
        AssistantMessage(content="", tool_calls=[call, call]),
        ToolResultMessage(tool_call_id="c1", tool_name="read_file", content="x" * 5_000),
        AssistantMessage(content="It says " + "y" * 500),
    ]
    line = carried_line(turn)
    assert line.startswith("- what does a.txt say? → [read_file] It says yyy")
    assert line.endswith("…") and len(line) < WORDS_CHARS + ANSWER_CHARS + 30
    assert "xxx" not in line  # tool output is not carried
    assert carried_line([UserMessage(content="hi")]) == "- hi → "
    block = carried_block("[Earlier]", [turn, [UserMessage(content="hi")]])
    assert block.splitlines()[0] == "[Earlier]" and len(block.splitlines()) == 3
    assert carried_block("[Earlier]", []) == ""
