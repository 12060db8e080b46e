"""Truncation notices and the bounded byte buffer."""

from __future__ import annotations

from jarvis.core.tools.builtins._output import (
    ByteBudget,
    cap_items,
    clip_line,
    is_binary,
    truncate,
)


def test_truncate_leaves_short_text_alone() -> None:
    assert truncate("abc", 3) == "abc"


def test_truncate_says_how_much_was_shown() -> None:
    assert truncate("abcdef", 4) == "abcd\n[truncated: showing 4 of 6 characters]"


def test_truncate_counts_a_total_beyond_the_text() -> None:
    assert truncate("abcd", 2, total=1_234_567) == (
        "ab\n[truncated: showing 2 of 1,234,567 characters]"
    )


def test_cap_items() -> None:
    assert cap_items(["a", "b"], 2, "files") == "a\nb"
    assert cap_items(["a", "b", "c"], 2, "files") == "a\nb\n[truncated: showing 2 of 3 files]"


def test_clip_line() -> None:
    assert clip_line("short", 10) == "short"
    assert clip_line("x" * 12, 10) == "x" * 10 + "… [2 more characters]"


def test_is_binary() -> None:
    assert is_binary(b"a\x00b") and not is_binary("한글".encode())


def test_byte_budget_keeps_a_head_and_counts_everything() -> None:
    budget = ByteBudget(keep=5)
    for chunk in (b"abc", b"defgh", b"ij"):
        budget.add(chunk)
    assert budget.data == b"abcde" and budget.total_bytes == 10 and budget.overflowed
    assert budget.text(3) == "abc\n[truncated: showing 3 of 10 characters]"


def test_byte_budget_counts_utf8_characters_not_bytes() -> None:
    budget = ByteBudget(keep=100)
    budget.add("한글 ok".encode())
    assert budget.total_bytes == 9 and budget.total_chars == 5
    assert budget.text(100) == "한글 ok" and not budget.overflowed


def test_byte_budget_split_characters_still_count_once() -> None:
    budget = ByteBudget(keep=100)
    data = "가나".encode()
    budget.add(data[:2])
    budget.add(data[2:])
    assert budget.total_chars == 2 and budget.text(10) == "가나"
