"""Whose standing consent counts when one agent asks another (`ask_agent`, issue 23).

The asked agent runs with its own rules, but a remembered ALWAYS is one person's consent *for
that agent*: a prompt-injected agent must not spend it by asking. So a call made for a chain of
agents (the askers, outermost first, then the asked agent) is judged against every agent's
rules: any deny rule blocks, and a rule allows only when every agent holds one that covers the
call; anything else asks a person.
"""

from __future__ import annotations

from collections.abc import Iterable

from jarvis.core.policy.rules import NO_MATCH, RuleMatch


def strictest(matches: Iterable[RuleMatch]) -> RuleMatch:
    """The asked agent's match first, then each asker's: a deny wins, an allow needs all."""
    chain = list(matches)
    if not chain:
        return NO_MATCH
    for match in chain:
        if match.outcome == "deny":
            return match
    for match in chain:
        if match.outcome != "allow":
            return match  # its reason (no rule, unreadable, secret) says why a person is asked
    return chain[0]  # the asked agent's own rule is the one named
