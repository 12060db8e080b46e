"""The reflection prompt (`~/.jarvis/inner_thought_reflection.md`): shipped default, placeholders,
and seed 003's rule — a template without the `utterance` key means speaking first is off."""

from __future__ import annotations

import re
from importlib import resources

from jarvis.common.i18n import Language

REFLECTION_FILE = "inner_thought_reflection.md"
# The reflection call's system prompt starts with this (scripted models recognise it).
REFLECTION_MARKER = "[reflection]"
_KEYS = ("trigger", "open_loops", "recent", "now", "language")
# `{{language}}`: the person's language as the model reads it (their page's, else the setting).
LANGUAGE_NAMES: dict[Language, str] = {"ko": "Korean (한국어)", "en": "English"}


def default_reflection() -> str:
    return resources.files(__package__).joinpath(REFLECTION_FILE).read_text(encoding="utf-8")


def speaks(template: str) -> bool:
    """Seed 003: no `utterance` key in the template → Proactive Dialogue is off (no call)."""
    return "utterance" in template


def fill_reflection(template: str, **values: str) -> str:
    """`{{trigger}}`, `{{open_loops}}`, `{{recent}}`, `{{now}}`, `{{language}}`; other braces stay
    as written."""
    pattern = r"\{\{\s*(" + "|".join(_KEYS) + r")\s*\}\}"
    return re.sub(pattern, lambda m: values.get(m.group(1), ""), template)
