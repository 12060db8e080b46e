"""The gate the executor calls: decide, audit, and turn a refusal into what the model reads."""

from __future__ import annotations

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.common.clock import Clock
from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger
from jarvis.core.approvals.audit import AuditLog, AuditRecord
from jarvis.core.policy.destructive import DANGER_CODES
from jarvis.core.policy.rule_store import ChangeListener, RuleChange
from jarvis.core.policy.sandbox import Decision, Sandbox
from jarvis.core.tools.base import Tool
from jarvis.core.tools.executor import GateVerdict
from jarvis.model_layer.messages import ToolCall

_log = get_logger("jarvis.gate")


class Gate:
    def __init__(self, sandbox: Sandbox, audit: AuditLog, language: Language = "ko") -> None:
        self.sandbox = sandbox
        self.audit = audit
        self.language = language

    @property
    def unattended(self) -> bool:
        return self.sandbox.unattended

    async def check(self, tool: Tool, call: ToolCall, ctx: ToolCallContext) -> GateVerdict:
        try:
            decision = await self.sandbox.decide(tool, call, ctx)
        except Exception as exc:  # a broken gate never lets a call through
            _log.exception("the gate failed on %s", tool.name)
            decision = Decision("block", "policy_unavailable", detail=str(exc))
        await self._audit(
            AuditRecord(
                ts_ms=self.sandbox.clock.now_ms(),
                user=ctx.user_id,
                agent=ctx.agent_id,
                session=ctx.session_id,
                turn=ctx.turn,
                tool=tool.name,
                source=tool.source.label(),
                outcome=decision.outcome,
                reason=decision.reason,
                rule=decision.rule,
                asked_by=",".join(ctx.asked_by) or None,
            )
        )
        if decision.allowed:
            return GateVerdict(decision.as_dict())
        lang = ctx.speaks(self.language)  # the person's: the line is shown to them
        return GateVerdict(decision.as_dict(), self._refusal(tool.name, decision, lang))

    async def _audit(self, record: AuditRecord) -> None:
        # The decision stands without its line: a full disk or a database blip must not
        # refuse (or allow) calls; the failure is logged where operators look.
        try:
            await self.audit.append(record)
        except Exception:
            _log.exception("audit line not written: %s", record.model_dump_json())

    async def after_call(
        self, tool: Tool, call: ToolCall, result: ToolResult, ctx: ToolCallContext
    ) -> None:
        await self.sandbox.plugins.after_tool_call(tool.name, call.arguments, result.is_error)

    def _refusal(self, tool: str, decision: Decision, lang: Language) -> ToolResult:
        reason = decision.reason
        denial = None
        if reason == "user_deny":
            text, denial = t("gate.approval_denied", lang, tool=tool), "user_deny"
        elif reason == "timeout":
            text, denial = t("gate.approval_timeout", lang, tool=tool), "timeout"
        elif reason == "denied_repeated":
            text = t("gate.approval_denied_repeated", lang, tool=tool, count=decision.detail)
        elif reason == "secret_path":
            text = t("gate.secret_path", lang, path=decision.detail, tool=tool)
        elif reason == "dangerous":
            text = _dangerous_line(decision.detail, lang)
        elif reason.startswith("rule:"):
            origin = reason.removeprefix("rule:")
            text = t("gate.rule_denied", lang, origin=origin, pattern=decision.detail, tool=tool)
        elif reason == "policy_denied":
            text = t("gate.policy_denied", lang, tool=tool, role=decision.detail)
        elif reason.startswith("plugin:"):
            text = t(
                "gate.plugin_blocked",
                lang,
                plugin=reason.removeprefix("plugin:"),
                tool=tool,
                reason=decision.detail,
            )
        elif reason == "invalid_args":
            text = t("gate.invalid_args", lang, tool=tool, reason=decision.detail)
        elif reason in ("no_approver", "approval_unavailable", "policy_unavailable", "aborted"):
            text = t(f"gate.{reason}", lang, tool=tool)
        else:
            text = f"{decision.outcome}: {reason}"
        return ToolResult(
            content=text,
            is_error=True,
            denial=denial,  # type: ignore[arg-type]
            details={"decision": decision.as_dict()},
        )


def _dangerous_line(detail: str, lang: Language) -> str:
    """Judged on argv (`code: command`) or by a regex of the configured list."""
    code, _, command = detail.partition(": ")
    if code in DANGER_CODES:
        why = t(f"gate.shell.danger.{code}", lang)
        return t("gate.shell.dangerous", lang, reason=why, command=command)
    return t("gate.dangerous", lang, pattern=detail)


def rule_change_recorder(audit: AuditLog, clock: Clock) -> ChangeListener:
    """Every change to the remembered rules (hand edit, revoke, broken file) is an audit line:
    outcome `rule_added` / `rule_removed` / `rule_revoked` / `rule_file_error`."""

    async def record(change: RuleChange) -> None:
        await audit.append(
            AuditRecord(
                ts_ms=clock.now_ms(),
                user=change.by,
                agent=change.agent or "*",
                session="",
                turn=0,
                tool=change.tool or "*",
                source="rules",
                outcome=f"rule_{change.kind}",
                reason=change.origin,
                rule=change.label,
            )
        )

    return record
