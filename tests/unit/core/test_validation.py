"""Input validation table (SPEC §7, seed 004 보안 파이프라인)."""

from __future__ import annotations

import pytest

from jarvis.common.i18n import t
from jarvis.core.security.validation import validate_input


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("   \n\t", "empty"),
        ("x" * 10_001, "too_long"),
        ("<script>alert(1)</script>", "script"),
        ("<SCRIPT src=x>", "script"),
        ("< script>", "script"),
        ("click javascript:alert(1)", "script"),
        ("JavaScript :void(0)", "script"),
        ('<img src=x onerror="alert(1)">', "script"),
        ("<div onclick = go()>", "script"),
    ],
)
def test_refused_inputs(text: str, code: str) -> None:
    result = validate_input(text, max_length=10_000)
    assert not result.ok and result.code == code and result.error


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("안녕", "안녕"),
        ("x" * 10_000, "x" * 10_000),
        ("a < b & c > d", "a &lt; b &amp; c &gt; d"),
        ("onion=3 and money=5", "onion=3 and money=5"),
        ("\u1100\u1161", "\uac00"),  # NFD jamo → NFC syllable
        ('say "hi"', 'say "hi"'),
    ],
)
def test_accepted_inputs_are_normalised_and_escaped(text: str, expected: str) -> None:
    result = validate_input(text, max_length=10_000)
    assert result.ok and result.text == expected


def test_messages_come_from_the_catalog_in_the_chosen_language() -> None:
    result = validate_input("x" * 11, max_length=10, lang="en")
    assert result.error == t("validation.too_long", "en", length=11, limit=10)
