"""One unattended turn: the owner's new session, the unattended gate, the outcome in words.

The gate of an unattended run is the app's sandbox with nobody to ask: chat ALWAYS rules do not
apply, the owner's valid pre-approvals do, any other approval-requiring call gets
`approval_unavailable`, and dangerous commands are blocked as everywhere.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from jarvis.app.infra import AppAssembly
from jarvis.app.session_builder import SessionBuilder
from jarvis.common.i18n import Language, t
from jarvis.core.policy.gate import Gate
from jarvis.core.scheduler.grants import approval_policy_fingerprint
from jarvis.core.scheduler.preapproval import Definition, PreapprovalStore

RunStatus = Literal["ok", "blocked", "failed", "skipped"]
# A refusal that means the run could not do what it was asked (it "was blocked").
_BLOCKING = {"approval_unavailable", "dangerous", "secret_path", "policy_denied"}


@dataclass(frozen=True)
class TurnReport:
    status: RunStatus
    session_id: str
    answer: str
    reason: str = ""
    tokens: int = 0

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class UnattendedTurns:
    def __init__(self, app: AppAssembly, builders: dict[str, SessionBuilder]) -> None:
        self.app = app
        self.builders = builders
        self.preapprovals = PreapprovalStore(
            app.settings.home, app.audit, app.clock, self.policy_fingerprint, app.settings.language
        )

    def builder(self, agent_id: str) -> SessionBuilder:
        builder = self.builders.get(agent_id)
        if builder is None:
            raise LookupError(f"no agent {agent_id!r}")
        return builder

    def policy_fingerprint(self, tool: str, agent_id: str, owner: str) -> str:
        bounds = self.builder(agent_id).profile.boundaries
        return approval_policy_fingerprint(
            tool,
            self.app.sandbox.any_requires_approval([tool], owner),
            self.app.settings.security.dangerous_commands,
            bounds.ask,
            bounds.never,
        )

    async def gate_for(self, definition: Definition) -> Gate:
        valid = await self.preapprovals.valid_tools(definition)
        sandbox = dataclasses.replace(
            self.app.sandbox, unattended=True, approvals=None, preapproved=valid
        )
        return Gate(sandbox, self.app.audit, self.app.settings.language)

    async def run(
        self, definition: Definition, prompt: str, title: str, *, background: bool = False
    ) -> TurnReport:
        """One turn in a new session of the owner's (`background`: see `create_unattended`)."""
        gate = await self.gate_for(definition)
        builder = self.builder(definition.agent)
        session = await builder.create_unattended(
            gate, user_id=definition.owner, title=title, background=background
        )
        outcome = await session.prompt(prompt)
        await session.settle()
        tokens = 0
        refused: list[str] = []
        if outcome.result is not None:
            usage = outcome.result.usage
            tokens = usage.input_tokens + usage.output_tokens
            for run in outcome.result.tool_runs:
                decision = run.result.details.get("decision", {})
                if decision.get("reason") in _BLOCKING:
                    refused.append(f"{run.call.name}: {decision['reason']}")
        if outcome.error or outcome.ended_by in ("error", "invalid"):
            reason = outcome.error or outcome.ended_by
            return TurnReport("failed", session.id, outcome.answer, reason, tokens)
        if refused:
            return TurnReport("blocked", session.id, outcome.answer, "; ".join(refused), tokens)
        return TurnReport("ok", session.id, outcome.answer, "", tokens)

    def preapproval_reason(
        self, definition: Definition, missing: list[str], lang: Language | None = None
    ) -> str:
        """Why a run without its owner's pre-approval does not start (seed 002)."""
        return t(
            "unattended.preapproval_required",
            lang or self.app.settings.language,
            definition=definition.key,
            owner=definition.owner,
            tools=", ".join(missing),
        )

    def line(self, name: str, report: TurnReport, lang: Language | None = None) -> str:
        lang = lang or self.app.settings.language
        if report.status == "failed":
            return t("unattended.run_failed", lang, name=name, reason=report.reason)
        if report.status == "blocked":
            head = t("unattended.run_blocked", lang, name=name, reason=report.reason)
            return f"{head}\n{report.answer}" if report.answer else head
        return t("unattended.run_answer", lang, name=name, answer=report.answer)
