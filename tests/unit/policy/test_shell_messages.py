"""Every code the shell gate gives has a line a human can read, in Korean and English."""

from __future__ import annotations

from typing import get_args

import pytest

from jarvis.common.i18n import t
from jarvis.core.policy.destructive import DANGER_CODES
from jarvis.core.policy.patterns import NO_ALWAYS_REASONS
from jarvis.core.policy.request_warnings import WARNING_CODES
from jarvis.core.policy.shell import UnsafeReason

KEYS = sorted(
    [f"gate.shell.unsafe.{code}" for code in get_args(UnsafeReason)]
    + [f"gate.shell.no_always.{code}" for code in NO_ALWAYS_REASONS]
    + [f"gate.shell.danger.{code}" for code in DANGER_CODES]
    + [f"gate.shell.warning.{code}" for code in WARNING_CODES]
)


@pytest.mark.parametrize("key", KEYS)
def test_each_code_has_both_languages(key: str) -> None:
    korean, english = t(key, "ko"), t(key, "en")
    assert korean and english and korean != english


def test_the_model_is_told_which_danger_and_which_command() -> None:
    text = t("gate.shell.dangerous", "en", reason="delete_root", command="rm -rf /")
    assert "delete_root: rm -rf /" in text and "approval cannot unblock" in text
