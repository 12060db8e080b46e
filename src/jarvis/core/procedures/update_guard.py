"""`update_guard`: the code filter between the reflector and the disk (seed 000 "거름망").

Checked in the seed's order; the first failed check is the reason given back to the reflector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Scope = Literal["execution_slip", "procedure", "agent_behavior"]
ReflectAction = Literal["no_change", "revise_procedure", "task_pattern"]

# The only action each scope allows.
SCOPE_ACTIONS: dict[str, str] = {
    "execution_slip": "no_change",
    "procedure": "revise_procedure",
    "agent_behavior": "task_pattern",
}
CONTENT_LIMIT = 1500
COPY_LIMIT = 40  # this many characters of the failed request copied verbatim is memorising


@dataclass(frozen=True)
class Proposal:
    scope: str
    action: str
    content: str = ""
    when: str = ""
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class GuardContext:
    has_procedure: bool  # the kind already has a procedure file (a revision needs no new room)
    room: bool  # the agent is under the cap of procedures + drafts
    graded_answer: str | None = None
    failed_requests: tuple[str, ...] = field(default_factory=tuple)


def update_guard(proposal: Proposal, ctx: GuardContext) -> str | None:
    """None when the proposal may be written, else why not (one line)."""
    if SCOPE_ACTIONS.get(proposal.scope) != proposal.action:
        return f"scope {proposal.scope} allows only {SCOPE_ACTIONS.get(proposal.scope, '-')}"
    if proposal.action == "no_change":
        return None
    content = proposal.content.strip()
    if not content:
        return "content is empty"
    if len(content) > CONTENT_LIMIT:
        return f"content is longer than {CONTENT_LIMIT} characters"
    if proposal.action == "task_pattern" and (
        not proposal.when.strip() or not [k for k in proposal.keywords if k.strip()]
    ):
        return "a task pattern needs when and keywords"
    answer = (ctx.graded_answer or "").strip()
    if answer and answer.lower() in content.lower():
        return "content contains this task's answer"
    copied = copied_span(content, ctx.failed_requests)
    if copied:
        return f"content copies {COPY_LIMIT}+ characters of the failed request: {copied[:60]}"
    needs_new_file = proposal.action == "task_pattern" or not ctx.has_procedure
    if needs_new_file and not ctx.room:
        return "no room: the agent has 30 procedures and drafts"
    return None


def copied_span(content: str, requests: tuple[str, ...]) -> str:
    """A `COPY_LIMIT`-character piece of a request found in `content` ('' when none)."""
    for request in requests:
        for start in range(0, max(0, len(request) - COPY_LIMIT + 1)):
            piece = request[start : start + COPY_LIMIT]
            if piece.strip() and piece in content:
                return piece
    return ""
