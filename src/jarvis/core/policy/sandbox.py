"""The single decision point of the tool gate: `Sandbox.decide(tool, call, ctx) -> Decision`.

Order (seed 000 + 002, SPEC §8): policy → plugins `before_tool_call` → dangerous commands →
secret locations (the workspace boundary, `fence.py`) → deny rules → approval required? →
repeated denials → remembered allow rules → ask a human.

The boundary adds to "approval required": a read or write outside the workspace, a bash line
naming a secret location and (by default) every web_fetch ask even when the role policy would
not; rules for them are matched on the real path (files) or the host (web_fetch).

Beside it: `decision.py` (`Decision`, the policy fingerprint, a call's identity for counting
denials) and `gate_request.py` (the approval request a person sees), both pure.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.clock import Clock
from jarvis.common.logging import get_logger
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.core.approvals.service import ApprovalService
from jarvis.core.config import SecuritySettings
from jarvis.core.plugins.host import PluginHost
from jarvis.core.policy.boundary import Boundary
from jarvis.core.policy.boundary_rules import has_rules, match_host_rules, match_target_rules
from jarvis.core.policy.consent_chain import strictest
from jarvis.core.policy.dangerous import DangerousMatcher
from jarvis.core.policy.decision import (
    RULES_UNREADABLE,
    Decision,
    args_key,
    policy_fingerprint,
)
from jarvis.core.policy.destructive import judge_command
from jarvis.core.policy.fence import (
    FILE_TOOLS,
    FREE,
    Fence,
    call_targets,
    fence_call,
    shell_fence_word,
)
from jarvis.core.policy.gate_request import approval_request
from jarvis.core.policy.git_aliases import git_expansions
from jarvis.core.policy.glob_scope import call_pattern_problem
from jarvis.core.policy.network import url_host
from jarvis.core.policy.paths import Target
from jarvis.core.policy.patterns import suggest_pattern
from jarvis.core.policy.role_policy import RolePolicy
from jarvis.core.policy.rule_store import RuleFileError, RuleStore
from jarvis.core.policy.rules import (
    HOST_TOOLS,
    NO_MATCH,
    SHELL_TOOLS,
    Rule,
    RuleMatch,
    RuleSet,
    is_stale,
    match_any_rules,
    match_shell_rules,
)
from jarvis.core.policy.shell import analyze_shell
from jarvis.core.tools.base import Tool
from jarvis.model_layer.messages import ToolCall

__all__ = ["RULES_UNREADABLE", "Decision", "Sandbox", "args_key", "policy_fingerprint"]

_log = get_logger("jarvis.gate")


@dataclass
class _TurnDenials:
    turn: int = 0
    counts: Counter[str] = field(default_factory=Counter)


@dataclass
class Sandbox:
    settings: SecuritySettings
    rules: RuleStore
    approvals: ApprovalService | None
    workspace: Path
    clock: Clock
    plugins: PluginHost = field(default_factory=PluginHost)
    unattended: bool = False
    # Unattended runs only: the tools the owner pre-approved for this definition (seed 002).
    preapproved: frozenset[str] = frozenset()
    # The user's home (`~` in secret patterns) and the data dir (`$JARVIS_HOME`, secret).
    user_home: Path = field(default_factory=Path.home)
    jarvis_home: Path | None = None
    # Opt-in (`security.sandbox_auto_allow`, set only when the OS sandbox works): a bash line
    # it judges confined runs without asking (`core/confine/auto_allow.py`).
    confined: Callable[[str, dict[str, Any], Boundary], bool] | None = None
    _policy: RolePolicy = field(init=False)
    _dangerous: DangerousMatcher = field(init=False)
    _boundary: Boundary = field(init=False)
    _home_text: str = field(init=False, default="")
    _root: Path = field(init=False)
    # The last call's resolved paths: `decide` and `_match_kind` both need them.
    _targets_of: tuple[ToolCall, tuple[Target, ...]] | None = field(default=None, init=False)
    _denials: dict[str, _TurnDenials] = field(default_factory=dict, init=False)
    # The settings are fixed for a sandbox's life, so fingerprints are computed once per tool.
    _fingerprints: dict[tuple[str, bool, str], str] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._home_text = str(self.user_home)  # the danger judgement's home, once
        self._policy = RolePolicy(self.settings)
        self._dangerous = DangerousMatcher.compile(self.settings.dangerous_commands)
        self._boundary = Boundary(
            os.path.realpath(self.workspace),
            os.path.realpath(self.user_home),
            os.path.realpath(self.jarvis_home) if self.jarvis_home is not None else None,
            self.settings.secret_paths,
        )
        self._root = Path(self._boundary.workspace)

    def any_requires_approval(self, tools: list[str], user_id: str = "local") -> bool:
        role = self._policy.role_of(user_id)
        try:
            return any(self._policy.requires_approval(role, name, None) for name in tools)
        except KeyError:
            return True

    def is_admin(self, user_id: str) -> bool:
        return self._policy.is_admin(user_id)

    def accepts_standing_consent(self, tool: str) -> bool:
        return tool not in self.settings.no_standing_consent

    def fingerprint(self, tool: Tool, approval_required: bool) -> str:
        key = (tool.name, approval_required, tool.source.label())
        cached = self._fingerprints.get(key)
        if cached is None:
            cached = self._fingerprints[key] = self._fingerprint(tool, approval_required)
        return cached

    def _fingerprint(self, tool: Tool, approval_required: bool) -> str:
        return policy_fingerprint(
            tool.name, approval_required, self.settings.dangerous_commands, tool.source.label()
        )

    def is_stale(self, rule: Rule, tool: Tool, user_id: str) -> bool:
        verdict = self._policy.evaluate(user_id, tool.name, _declared(tool))
        return is_stale(rule, self.fingerprint(tool, verdict == "approval_required"))

    async def decide(
        self, tool: Tool, call: ToolCall, ctx: ToolCallContext, *, dry_run: bool = False
    ) -> Decision:
        """The gate's decision; a dry run stops where a human would be asked."""
        try:
            verdict = self._policy.evaluate(ctx.user_id, tool.name, _declared(tool))
        except Exception as exc:  # fail closed, and don't remember it
            return Decision("block", "policy_unavailable", detail=str(exc))
        if verdict == "block":
            return Decision("block", "policy_denied", detail=self._policy.role_of(ctx.user_id))
        blocked = self.plugins.plugins and await self.plugins.before_tool_call(
            tool.name, call.arguments, {"user_id": ctx.user_id, "agent_id": ctx.agent_id}
        )
        if blocked:
            return Decision("block", f"plugin:{blocked.plugin}", detail=blocked.reason)
        command = call.arguments.get("command")
        if tool.name in SHELL_TOOLS and isinstance(command, str):
            # judged on the parsed form first; the regex list is the configurable extra layer
            danger = judge_command(command, self._home_text)
            if danger is not None:
                return Decision("block", "dangerous", detail=danger.describe())
            pattern = self._dangerous.check(command)
            if pattern is not None:
                return Decision("block", "dangerous", detail=pattern)
        refused = call_pattern_problem(tool.name, call.arguments)  # the tool refuses it too
        if refused is not None:
            return Decision("block", "invalid_args", detail=refused)
        fence = self._fence(tool, call, verdict == "approval_required")
        if fence.verdict == "forbidden":
            return Decision("block", "secret_path", detail=fence.path)
        required = verdict == "approval_required" or fence.verdict == "ask"
        match = await self._match(tool, call, ctx, required)
        if match.outcome == "deny" and match.rule is not None:
            rule = match.rule
            return Decision("block", f"rule:{rule.origin}", rule=rule.label(), detail=rule.pattern)
        if not required and match.reason != RULES_UNREADABLE:
            return Decision("allow", "not_required")
        if (  # the OS sandbox's opt-in allow; a matching rule or an unread rule file decides
            self.confined is not None
            and match == NO_MATCH
            and not (self.unattended or ctx.unattended)
            and self.confined(tool.name, call.arguments, self._boundary)
        ):
            return Decision("allow", "sandboxed")
        decision = await self._approval(tool, call, ctx, match, required, dry_run)
        warning = fence.warning or (match.reason if match.reason in _FENCE_CODES else "")
        if warning and not decision.detail:
            return dataclasses.replace(decision, detail=warning)
        return decision

    def _fence(self, tool: Tool, call: ToolCall, required: bool) -> Fence:
        """The workspace boundary; bash is judged here only when nothing else would ask (with
        approval required anyway, `_match_kind` judges it only when a rule would allow)."""
        if tool.name in SHELL_TOOLS and required:
            return FREE
        web_asks = self.settings.web_fetch_requires_approval
        targets = self._targets(tool, call) if tool.name in FILE_TOOLS else None
        return fence_call(
            tool.name, call.arguments, self._boundary, web_asks=web_asks, targets=targets
        )

    def _targets(self, tool: Tool, call: ToolCall) -> tuple[Target, ...]:
        memo = self._targets_of
        if memo is not None and memo[0] is call:
            return memo[1]
        targets = call_targets(tool.name, call.arguments, self._boundary.workspace)
        self._targets_of = (call, targets)
        return targets

    def boundary_warnings(self, tool: Tool, call: ToolCall) -> list[str]:
        """Codes for the approval request (`outside_workspace`, `secret_path`)."""
        warning = self._fence(tool, call, False).warning
        return [warning] if warning else []

    async def _approval(
        self,
        tool: Tool,
        call: ToolCall,
        ctx: ToolCallContext,
        match: RuleMatch,
        required: bool,
        dry_run: bool,
    ) -> Decision:
        denials = self._turn_denials(ctx)
        key = args_key(tool.name, call.arguments) if denials.counts else ""  # none denied yet
        if denials.counts.get(key, 0) >= self.settings.denied_repeat_threshold:
            return Decision("block", "denied_repeated", detail=str(denials.counts[key]))
        if (self.unattended or ctx.unattended) and not dry_run:
            # Chat ALWAYS rules never apply here: only the owner's pre-approval does.
            if tool.name in self.preapproved:
                return Decision("allow", "preapproved")
            return Decision("deny", "approval_unavailable")
        if match.outcome == "allow" and match.rule is not None:
            return Decision("allow", f"rule:{match.rule.origin}", rule=match.rule.label())
        if dry_run:
            pattern = suggest_pattern(tool.name, call.arguments, self.workspace)
            offered = pattern if self.accepts_standing_consent(tool.name) else None
            return Decision("ask", "approval_required", detail=offered or "")
        if self.approvals is None:
            return Decision("deny", "no_approver")
        request = self._request(tool, call, ctx)
        status = await self.approvals.ask(request, ctx.abort)
        key = key or args_key(tool.name, call.arguments)
        if status in ("allow", "always"):
            denials.counts.pop(key, None)
            if status == "always" and request.pattern is not None:
                failure = await self._remember(tool, ctx, request.pattern, required)
                if failure is None:
                    return Decision("allow", "user_always", rule=f"{tool.name} {request.pattern}")
                return Decision("allow", "user_once", detail=f"rule not saved: {failure}")
            return Decision("allow", "user_once")
        if status == "deny":
            denials.counts[key] += 1
            return Decision("deny", "user_deny")
        if status == "timeout":
            return Decision("timeout", "timeout")
        if status == "no_approver":
            return Decision("deny", "no_approver")
        return Decision("deny", "aborted")

    async def _match(
        self, tool: Tool, call: ToolCall, ctx: ToolCallContext, required: bool
    ) -> RuleMatch:
        """The agent's rules; under `ask_agent`, every asking agent's too (`consent_chain`)."""
        if not ctx.asked_by:  # the hot path: `strictest` of one match is that match
            return await self._match_for(ctx.agent_id, tool, call, ctx, required)
        agents = (ctx.agent_id, *reversed(ctx.asked_by))
        return strictest(
            [await self._match_for(agent, tool, call, ctx, required) for agent in agents]
        )

    async def _match_for(
        self, agent: str, tool: Tool, call: ToolCall, ctx: ToolCallContext, required: bool
    ) -> RuleMatch:
        rules = await self.rules.rules_for(agent, ctx.user_id)
        if not len(rules) and not rules.unreadable:
            return NO_MATCH
        now, current = self.clock.now_ms(), self.fingerprint(tool, required)
        match = self._match_kind(tool, call, rules, now, current)
        if rules.unreadable and match.outcome != "deny":
            # A rule file that never loaded may have denied this call: ask, whatever the tool.
            return RuleMatch("none", reason=RULES_UNREADABLE)
        if match.outcome == "allow" and not self.accepts_standing_consent(tool.name):
            return NO_MATCH  # such tools ignore remembered consent; deny rules still apply
        return match

    def _match_kind(
        self, tool: Tool, call: ToolCall, rules: RuleSet, now: int, current: str
    ) -> RuleMatch:
        if tool.name in SHELL_TOOLS:
            command = call.arguments.get("command")
            if not isinstance(command, str):
                return NO_MATCH
            analysis = analyze_shell(command)
            boundary = self._boundary  # git aliases from config files are read here (the edge)
            git = git_expansions(command, boundary.workspace, boundary.home, os.environ)
            match = match_shell_rules(analysis, rules, now_ms=now, fingerprint=current, git=git)
            fenced = match.outcome == "allow" and shell_fence_word(command, self._boundary)
            if fenced:
                return RuleMatch("none", reason=fenced[0])  # a human must see this line
            return match
        if tool.name in FILE_TOOLS:
            if not has_rules(tool.name, rules):
                return NO_MATCH
            targets = self._targets(tool, call)
            if not targets:
                return NO_MATCH
            (target,) = targets
            if not target.resolved:
                return NO_MATCH  # no rule can say where it leads: a human is asked
            return match_target_rules(
                tool.name,
                target.lexical,
                target.real,
                rules,
                workspace=self._root,
                now_ms=now,
                fingerprint=current,
            )
        if tool.name in HOST_TOOLS:
            url = call.arguments.get("url")
            host = url_host(url) if isinstance(url, str) else None
            return match_host_rules(tool.name, host, rules, now_ms=now, fingerprint=current)
        return match_any_rules(tool.name, rules, now_ms=now, fingerprint=current)

    def _request(self, tool: Tool, call: ToolCall, ctx: ToolCallContext) -> ApprovalRequest:
        return approval_request(
            tool,
            call,
            ctx,
            workspace=self.workspace,
            timeout_sec=self.settings.approval_timeout_sec,
            now_ms=self.clock.now_ms(),
            standing_consent=self.accepts_standing_consent(tool.name),
            boundary_warnings=self.boundary_warnings(tool, call),
        )

    async def _remember(
        self, tool: Tool, ctx: ToolCallContext, pattern: str, required: bool
    ) -> str | None:
        """Save the ALWAYS rule; returns why it could not be saved (the call still runs)."""
        granted = datetime.fromtimestamp(self.clock.now_ms() / 1000, UTC)
        try:
            await self._add_rule(tool, ctx, pattern, required, granted)
        except (RuleFileError, OSError, ValueError, psycopg.Error) as exc:
            _log.error("ALWAYS rule not saved for %s %s: %s", tool.name, pattern, exc)
            return str(exc)
        return None

    async def _add_rule(
        self, tool: Tool, ctx: ToolCallContext, pattern: str, required: bool, granted: datetime
    ) -> None:
        await self.rules.add_rule(
            ctx.agent_id,
            Rule(
                tool=tool.name,
                pattern=pattern,
                granted_by=ctx.user_id,
                granted_at=granted.isoformat(timespec="seconds").replace("+00:00", "Z"),
                session_id=ctx.session_id,
                fingerprint=self.fingerprint(tool, required),
            ),
        )

    def _turn_denials(self, ctx: ToolCallContext) -> _TurnDenials:
        entry = self._denials.get(ctx.session_id)
        if entry is None:
            entry = self._denials[ctx.session_id] = _TurnDenials()
        if entry.turn != ctx.turn:
            entry.turn, entry.counts = ctx.turn, Counter()
        return entry


_FENCE_CODES = frozenset({"secret_path", "outside_workspace", "unresolvable_path"})


def _declared(tool: Tool) -> bool | None:
    """A tool's own approval requirement (MCP servers declare one)."""
    value = getattr(tool, "requires_approval", None)
    return value if isinstance(value, bool) else None
