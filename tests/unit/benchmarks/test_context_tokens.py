"""The prefix measure of `benchmarks/context_tokens.py`: what share of a call's prompt a prompt
cache can reuse from the call before."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "context_tokens.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("context_tokens_bench", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("", "", 0),
        ("abc", "", 0),
        ("abc", "abc", 3),
        ("abcd", "abxd", 2),
        ("abc", "abcdef", 3),
        ("x" * 1000 + "y", "x" * 1000 + "z", 1000),
        ("q", "r", 0),
    ],
)
def test_common_prefix_is_the_length_both_texts_start_with(
    bench: ModuleType, a: str, b: str, expected: int
) -> None:
    assert bench.common_prefix(a, b) == expected
    assert bench.common_prefix(b, a) == expected


def test_prefix_shares_mark_each_turns_first_call_and_its_reused_share(bench: ModuleType) -> None:
    texts = [(1, "SYS|u1"), (1, "SYS|u1|tool1"), (2, "SYS|u2"), (2, "SYS|u2|tool2"), (3, "OTHER")]
    shares = bench.prefix_shares(texts)
    assert [(turn, first) for turn, first, _ in shares] == [
        (1, False),
        (2, True),
        (2, False),
        (3, True),
    ]
    assert shares[0][2] == pytest.approx(6 / 12)  # the turn's second call extends its first
    assert shares[1][2] == pytest.approx(5 / 6)  # "SYS|u" survives from the call before
    assert shares[2][2] == pytest.approx(6 / 12)
    assert shares[3][2] == 0.0  # nothing in common: a cache reuses nothing


def test_a_whole_history_prompt_reuses_all_of_the_call_before(bench: ModuleType) -> None:
    history = [(turn, "SYS" + "".join(f"|u{n}|a{n}" for n in range(turn))) for turn in range(1, 6)]
    shares = bench.prefix_shares(history)
    for (turn, text), (_, first, share) in zip(history[1:], shares, strict=True):
        previous = dict(history)[turn - 1]
        assert first
        assert share == pytest.approx(len(previous) / len(text))
