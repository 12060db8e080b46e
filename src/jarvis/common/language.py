"""Which language a person reads, from the terminal's locale.

An explicit setting wins (`JARVIS_LANGUAGE`, `language:` in config.yaml); without one the
terminal's locale decides, in POSIX order: `LC_ALL`, then `LC_MESSAGES`, then `LANG` — the first
that is set. Korean locales give Korean; any other named language gives English (the one other
language Jarvis speaks); `C`/`POSIX` or nothing set says nothing (the default, Korean, stays).
"""

from __future__ import annotations

from collections.abc import Mapping

from jarvis.common.i18n import Language

DEFAULT_LANGUAGE: Language = "ko"
_LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
_NO_LANGUAGE = ("c", "posix")


def locale_language(environ: Mapping[str, str]) -> Language | None:
    """The language the locale names (`en_US.UTF-8` → en, `ko_KR.UTF-8` → ko), or None."""
    for name in _LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            return _from_locale(value)
    return None


def _from_locale(value: str) -> Language | None:
    code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].lower()
    if code in _NO_LANGUAGE or not code.isalpha():
        return None
    return "ko" if code == "ko" else "en"


def chosen_language(value: str | None) -> Language | None:
    """A language setting's value, when it is one Jarvis speaks."""
    return "en" if value == "en" else "ko" if value == "ko" else None


def environment_language(environ: Mapping[str, str]) -> Language:
    """`JARVIS_LANGUAGE`, else the locale, else the default (for lines before settings load)."""
    return (
        chosen_language(environ.get("JARVIS_LANGUAGE"))
        or locale_language(environ)
        or DEFAULT_LANGUAGE
    )
