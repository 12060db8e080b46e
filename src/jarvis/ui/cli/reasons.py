"""A tool decision in a person's words (`terminal.reason.*`), not the gate's reason code."""

from __future__ import annotations

from typing import Any

from jarvis.common.i18n import Language, t

_SILENT = frozenset({"not_required", "approval_required", ""})


def decision_reason(decision: dict[str, Any], lang: Language) -> str:
    """'' when there is nothing to say (no approval was needed)."""
    reason = str(decision.get("reason") or "")
    if reason in _SILENT:
        return ""
    if reason.startswith("rule:"):
        kind = "rule_allow" if decision.get("outcome") == "allow" else "rule_block"
        return t(f"terminal.reason.{kind}", lang, origin=reason.removeprefix("rule:"))
    if reason.startswith("plugin:"):
        return t("terminal.reason.plugin", lang, name=reason.removeprefix("plugin:"))
    if reason == "user_always":
        return t("terminal.reason.user_always", lang, rule=decision.get("rule") or "")
    try:
        return t(f"terminal.reason.{reason}", lang)
    except KeyError:
        return reason  # a code this build does not know yet: shown as it is
