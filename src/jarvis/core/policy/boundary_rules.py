"""Rule matching for the boundary's tool kinds. Pure, like `rules.py` (whose rule sets it reads).

API:
- `has_rules(tool, rules) -> bool`: any rule for the tool (so the edge can skip resolving paths).
- `match_target_rules(tool, lexical, real, rules, *, workspace, now_ms, fingerprint)`: read and
  write tools. Both paths are judged: a deny rule covering either denies; an allow rule must
  cover both the path as written and where it really leads (so `src/app/link/x`, with `link`
  pointing outside, or `src/app/link/../x`, never rides on a `src/app/*` rule).
- `match_host_rules(tool, host, rules, *, now_ms, fingerprint)`: web_fetch; deny wins; `host`
  None (a URL without one) matches nothing.
"""

from __future__ import annotations

from pathlib import Path

from jarvis.core.policy.network import host_covered
from jarvis.core.policy.rule_index import in_force
from jarvis.core.policy.rules import NO_MATCH, RuleMatch, RuleSet, match_path_rules


def has_rules(tool: str, rules: RuleSet) -> bool:
    return (tool, "allow") in rules._by_tool or (tool, "deny") in rules._by_tool


def match_target_rules(
    tool: str,
    lexical: str,
    real: str,
    rules: RuleSet,
    *,
    workspace: Path,
    now_ms: int,
    fingerprint: str | None,
) -> RuleMatch:
    first = match_path_rules(
        tool, lexical, rules, workspace=workspace, now_ms=now_ms, fingerprint=fingerprint
    )
    if first.outcome == "deny" or real == lexical:
        return first
    second = match_path_rules(
        tool, real, rules, workspace=workspace, now_ms=now_ms, fingerprint=fingerprint
    )
    if second.outcome == "deny" or first.outcome != "allow":
        return second if second.outcome == "deny" else NO_MATCH
    return first if second.outcome == "allow" else NO_MATCH


def match_host_rules(
    tool: str, host: str | None, rules: RuleSet, *, now_ms: int, fingerprint: str | None
) -> RuleMatch:
    if host is None:
        return NO_MATCH
    for action in ("deny", "allow"):
        for entry in rules._by_tool.get((tool, action), ()):
            if in_force(entry, now_ms, fingerprint) and host_covered(entry.rule._canonical, host):
                return RuleMatch(action, (entry.rule,), f"{action}_rule")
    return NO_MATCH
