"""The approval request a person sees for one call: the line, the options (ALWAYS only with a
pattern and for a tool that takes standing consent), the warnings, the diff of a file change.
Pure: the clock's time and the boundary's warnings come in."""

from __future__ import annotations

from pathlib import Path

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.clock import new_id
from jarvis.core.approvals.file_diff import file_change_diff
from jarvis.core.approvals.request import AnswerOption, ApprovalRequest, preview_args
from jarvis.core.policy.patterns import explain_pattern
from jarvis.core.policy.request_warnings import shell_warnings
from jarvis.core.policy.rules import SHELL_TOOLS
from jarvis.core.policy.shell import analyze_shell
from jarvis.core.tools.base import Tool
from jarvis.model_layer.messages import ToolCall


def approval_request(
    tool: Tool,
    call: ToolCall,
    ctx: ToolCallContext,
    *,
    workspace: Path,
    timeout_sec: float,
    now_ms: int,
    standing_consent: bool,
    boundary_warnings: list[str],
) -> ApprovalRequest:
    pattern, no_always = explain_pattern(tool.name, call.arguments, workspace)
    options: list[AnswerOption] = ["allow", "deny"]
    if pattern is not None and standing_consent:
        options = ["allow", "always", "deny"]
    elif pattern is not None:
        pattern, no_always = None, "no_standing_consent"
    warnings: list[str] = []
    whole: tuple[str, ...] = ()
    command = call.arguments.get("command")
    if tool.name in SHELL_TOOLS and isinstance(command, str):
        warnings = shell_warnings(command, analyze_shell(command))
        whole = ("command",)  # what the human approves is all of what runs
    warnings += [w for w in boundary_warnings if w not in warnings]
    now, timeout = now_ms, timeout_sec
    return ApprovalRequest(
        id=new_id(),
        session_id=ctx.session_id,
        agent_id=ctx.agent_id,
        agent_path=list(ctx.path),
        user_id=ctx.user_id,
        turn=ctx.turn,
        tool_call_id=call.id,
        tool=tool.name,
        source=tool.source.label(),
        args=preview_args(call.arguments, whole=whole),
        options=options,
        pattern=pattern,
        irreversible=tool.destructive,
        warnings=warnings,
        no_always_reason=no_always,
        diff=None
        if "secret_path" in warnings
        else file_change_diff(tool.name, call.arguments, workspace),
        created_ms=now,
        expires_ms=now + int(timeout * 1000),
        timeout_sec=timeout,
    )
