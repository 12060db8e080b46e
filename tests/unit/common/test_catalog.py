"""Every catalog line exists in both languages with the same placeholders, parts included."""

from __future__ import annotations

import re
import string

import pytest

from jarvis.common import i18n
from jarvis.common.i18n import register_messages

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(i18n._CATALOG))
def test_every_line_has_both_languages_with_the_same_fields(key: str) -> None:
    entry = i18n._CATALOG[key]
    assert entry.get("ko") and entry.get("en"), key
    assert _fields(entry["ko"]) == _fields(entry["en"]), key
    assert not HANGUL.search(entry["en"]), f"{key}: the English line has Korean in it"


def test_a_key_defined_twice_is_refused() -> None:
    with pytest.raises(ValueError, match=r"validation\.empty"):
        register_messages({"validation.empty": {"ko": "x", "en": "x"}})
