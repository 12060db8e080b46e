"""What the gate decided (`Decision`), and the small identities it keys on: the policy
fingerprint a standing consent relied on, and a call's identity for counting denials. Pure."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any, Literal

# A rule file never loaded: what it denied is unknown, so every call asks a human.
RULES_UNREADABLE = "rules_unreadable"
# "ask" only comes from a dry run (`jarvis approvals check`): a human would be asked.

Outcome = Literal["allow", "deny", "timeout", "block", "ask"]


@dataclass(frozen=True)
class Decision:
    outcome: Outcome
    reason: str
    rule: str | None = None
    detail: str = ""

    @property
    def allowed(self) -> bool:
        return self.outcome == "allow"

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, "")}


def policy_fingerprint(
    tool: str, approval_required: bool, dangerous: list[str], source: str
) -> str:
    """What a standing consent relied on; a change makes old rules stale."""
    basis = json.dumps([tool, approval_required, sorted(dangerous), source])
    return hashlib.sha256(basis.encode()).hexdigest()[:16]


def args_key(tool: str, args: dict[str, Any]) -> str:
    """Identity of a call for counting denials (cheap for the usual one-string argument)."""
    if len(args) == 1:
        ((name, value),) = args.items()
        if isinstance(value, str):
            return f"{tool}\x00{name}\x00{value}"
    return tool + "\x00" + json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)
