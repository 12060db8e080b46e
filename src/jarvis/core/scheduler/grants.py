"""Owner pre-approval for unattended runs (seed 002 "사람이 없는 실행은 소유자가 미리 승인한
도구만 쓴다"): fingerprints and the validity of a grant, as pure functions.

A grant is one (definition, tool) pair approved by the definition's owner. It never expires;
it is void as soon as what the owner agreed to changes:

* `policy`: the approval policy that made the tool ask (the approval-required list, the
  dangerous-command list, the agent's boundaries) — "권한 설정이 바뀌어 이전 승인 만료";
* `definition`: the definition's fingerprint (prompt, settings, step order) —
  "…내용이 바뀌어 이전 승인 만료";
* `owner`: the definition's owner — "소유자가 바뀌어 이전 승인 만료".

Checked in that order, as the seed lists them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

VoidReason = Literal["policy", "definition", "owner"]
REASON_KEYS: dict[VoidReason, str] = {
    "policy": "unattended.void.policy",
    "definition": "unattended.void.definition",
    "owner": "unattended.void.owner",
}


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def definition_fingerprint(
    kind: str, prompt: str, settings: Mapping[str, Any], steps: Sequence[str] = ()
) -> str:
    """What the owner agreed to run: the prompt, the settings and the steps in order.
    Key order in `settings` and surrounding whitespace do not count; step order does."""
    return _digest(
        {
            "kind": kind,
            "prompt": prompt.strip(),
            "settings": dict(settings),
            "steps": [s.strip() for s in steps],
        }
    )


def approval_policy_fingerprint(
    tool: str,
    approval_required: bool,
    dangerous: Sequence[str],
    boundaries_ask: Sequence[str],
    boundaries_never: Sequence[str],
) -> str:
    """The policy a grant for `tool` relied on."""
    return _digest(
        [
            tool,
            approval_required,
            sorted(dangerous),
            sorted(boundaries_ask),
            sorted(boundaries_never),
        ]
    )


@dataclass(frozen=True)
class Grant:
    definition: str  # "<kind>:<id>", e.g. "schedule:morning-brief"
    tool: str
    owner: str
    definition_fp: str
    policy_fp: str
    granted_ms: int
    agent_id: str = "main"


@dataclass(frozen=True)
class Basis:
    """What holds now, to compare a grant with."""

    owner: str
    definition_fp: str
    policy_fp: str


def void_reason(grant: Grant, now: Basis) -> VoidReason | None:
    """Why this grant no longer counts, or None while it is valid."""
    if grant.policy_fp != now.policy_fp:
        return "policy"
    if grant.definition_fp != now.definition_fp:
        return "definition"
    if grant.owner != now.owner:
        return "owner"
    return None


def may_grant(requester: str, owner: str) -> bool:
    """Only the owner grants: the run acts with the owner's authority (seed 002)."""
    return requester == owner


def missing_grants(
    needed: Sequence[str], grants: Mapping[str, Grant], bases: Mapping[str, Basis]
) -> list[str]:
    """The tools among `needed` without a valid grant (enabling is refused while any)."""
    return [
        tool
        for tool in needed
        if tool not in grants or void_reason(grants[tool], bases[tool]) is not None
    ]
