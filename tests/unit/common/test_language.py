"""The terminal's locale picks the language when no setting does (POSIX order)."""

from __future__ import annotations

import pytest

from jarvis.common.language import environment_language, locale_language


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, None),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "ko_KR.eucKR"}, "ko"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # another language: English, not Korean
        ({"LANG": "fr"}, "en"),
        ({"LANG": "en_GB.UTF-8@euro"}, "en"),
        ({"LANG": "C.UTF-8"}, None),  # says nothing about a language
        ({"LANG": "POSIX"}, None),
        ({"LANG": "C"}, None),
        ({"LANG": "   "}, None),
        ({"LANG": "ko_KR.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8", "LC_ALL": "C"}, None),
        ({"LANG": "en_US.UTF-8", "LC_ALL": ""}, "en"),  # set but empty: the next one decides
        ({"LANG": "../../etc/passwd"}, None),  # junk is no language
    ],
)
def test_locale_language(environ: dict[str, str], language: str | None) -> None:
    assert locale_language(environ) == language


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "ko"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "JARVIS_LANGUAGE": "ko"}, "ko"),  # the setting wins
        ({"LANG": "ko_KR.UTF-8", "JARVIS_LANGUAGE": "en"}, "en"),
        ({"LANG": "en_US.UTF-8", "JARVIS_LANGUAGE": "fr"}, "en"),  # not one we speak: locale
    ],
)
def test_environment_language(environ: dict[str, str], language: str) -> None:
    assert environment_language(environ) == language
