"""The terminal approval channel: asks inline; a = ALLOW (Enter too), A = ALWAYS, d = DENY."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from jarvis.common.i18n import Language, t
from jarvis.core.approvals.channel import ApprovalChannel
from jarvis.core.approvals.pending import PendingApprovalStore, Status
from jarvis.core.approvals.request import ApprovalRequest

if TYPE_CHECKING:
    from jarvis.ui.cli.chat import ChatRepl

_KEYS = {"": "allow", "a": "allow", "A": "always", "d": "deny", "D": "deny"}
_LABELS = {"allow": "a/Enter = 한 번 허용", "always": "A = 항상 허용", "deny": "d = 거부"}
_RESOLVED = {
    "allow": "✓ 허용",
    "always": "✓ 항상 허용",
    "deny": "✗ 거부",
    "timeout": "⏱ 시간 초과로 거부",
    "cancelled": "✗ 취소",
}


class TerminalApprovalChannel(ApprovalChannel):
    def __init__(self, repl: ChatRepl, store: PendingApprovalStore) -> None:
        self.repl = repl
        self.store = store
        self._tasks: set[asyncio.Task[object]] = set()

    async def deliver(self, request: ApprovalRequest) -> bool:
        render = self.repl.render
        lang = self.repl.builder.app.settings.language
        shown = render.shown
        # A sub-agent's or an asked agent's request says who asks (main › planner).
        who = " · " + " › ".join(request.agent_path) if len(request.agent_path) > 1 else ""
        render.line(f"⚡ 승인 요청 · {shown(request.tool)} ({shown(request.source)}){shown(who)}")
        for arg in request.args:
            note = f"  (원래 {arg.original_length}자 중 일부만 표시)" if arg.shortened else ""
            render.line(f"    {shown(arg.key)}: {shown(arg.value, lang)}{note}")
        if request.irreversible:
            render.line("    ⚠ 되돌릴 수 없는 작업입니다.")
        for code in request.warnings:
            render.line(f"    {_explained(f'approval.warning.{code}', lang, f'⚠ {code}')}")
        if request.pattern is not None:
            render.line(
                f"    항상 허용하면 저장될 규칙: {shown(request.tool)} {shown(request.pattern)}"
            )
        elif request.no_always_reason:
            code = request.no_always_reason
            reason = _explained(f"approval.no_always.{code}", lang, shown(code))
            render.line(f"    {t('approval.no_always', lang, reason=reason)}")
        choices = " · ".join(_LABELS[o] for o in request.options)
        render.write(f"  [{choices}] ({int(request.timeout_sec)}초) › ")
        self.repl.set_answer_sink(lambda line: self._answer(request, line))
        return True

    def _answer(self, request: ApprovalRequest, line: str) -> bool:
        """True when `line` answered; anything else stays a prompt for after the turn."""
        answer = _KEYS.get(line.strip())
        if answer is None or answer not in request.options:
            return False
        task = asyncio.create_task(self.store.answer(request.id, request.user_id, answer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    async def resolved(self, request: ApprovalRequest, status: Status) -> None:
        self.repl.answer_sink = None
        self.repl.render.line(f"  {_RESOLVED.get(status, status)}")


def _explained(key: str, lang: Language, fallback: str) -> str:
    """The catalog's explanation of a code; an unknown code is shown as it is."""
    try:
        return t(key, lang)
    except KeyError:
        return fallback
