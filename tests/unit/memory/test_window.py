"""The history window moves in blocks: which earlier turns are sent with turn N."""

from __future__ import annotations

import pytest

from jarvis.memory import MemorySettings
from jarvis.memory.window import first_shown_turn


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
