"""The terminal approval channel: asks inline; a = ALLOW, A = ALWAYS, d = DENY (a bare Enter
answers nothing), and any other line is an answer in words (a negation denies; see
core/approvals/words.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from jarvis.app.approval_words import reply_classifier
from jarvis.common.i18n import Language, t
from jarvis.core.approvals.channel import ApprovalChannel
from jarvis.core.approvals.pending import PendingApprovalStore, Status
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.core.approvals.words_answer import answer_in_words
from jarvis.ui.cli.repl_view import ReplView

# A bare Enter answers nothing: a line typed for the chat must not approve a command that
# appeared meanwhile (the HUD's modal has no Enter-approve either).
_KEYS = {"a": "allow", "A": "always", "d": "deny", "D": "deny"}


class TerminalApprovalChannel(ApprovalChannel):
    def __init__(self, repl: ReplView, store: PendingApprovalStore) -> None:
        self.repl = repl
        self.store = store
        self._tasks: set[asyncio.Task[object]] = set()
        # One request is asked at a time; others (several sub-agents at once) wait their turn.
        self._asking: ApprovalRequest | None = None
        self._queue: list[ApprovalRequest] = []

    @property
    def lang(self) -> Language:
        return self.repl.builder.app.settings.language

    async def deliver(self, request: ApprovalRequest) -> bool:
        if self._asking is not None:
            self._queue.append(request)
            return True
        self._ask(request)
        return True

    def _ask(self, request: ApprovalRequest) -> None:
        self._asking = request
        render, lang = self.repl.render, self.lang
        shown = render.shown
        tool, source = shown(request.tool), shown(request.source)
        # A sub-agent's or an asked agent's request says who asks (main › planner).
        who = " · " + " › ".join(request.agent_path) if len(request.agent_path) > 1 else ""
        render.line(t("terminal.approval.title", lang, tool=tool, source=source) + shown(who))
        for arg in request.args:
            length = arg.original_length
            note = t("terminal.approval.shortened", lang, length=length) if arg.shortened else ""
            render.line(f"    {shown(arg.key)}: {shown(arg.value, lang)}{note}")
        if request.irreversible:
            render.line(t("terminal.approval.irreversible", lang))
        for code in request.warnings:
            render.line(f"    {_explained(f'approval.warning.{code}', lang, f'⚠ {code}')}")
        if request.pattern is not None:
            pattern = shown(request.pattern)
            render.line(t("terminal.approval.rule", lang, tool=tool, pattern=pattern))
        elif request.no_always_reason:
            code = request.no_always_reason
            reason = _explained(f"approval.no_always.{code}", lang, shown(code))
            render.line(f"    {t('approval.no_always', lang, reason=reason)}")
        choices = " · ".join(t(f"terminal.approval.{o}", lang) for o in request.options)
        seconds = int(request.timeout_sec)
        render.ask(t("terminal.approval.ask", lang, choices=choices, seconds=seconds))
        self._wait_for_answer(request)

    def _wait_for_answer(self, request: ApprovalRequest) -> None:
        self.repl.set_answer_sink(
            lambda line: self._answer(request, line), lambda line: self._key(request, line)
        )

    def _key(self, request: ApprovalRequest, line: str) -> bool:
        """True when `line` is one of the answer keys (then it is answered)."""
        key = _KEYS.get(line.strip())
        if key is None or key not in request.options:
            return False
        # Taken: the lines that follow are prompts again, not answers to this request.
        self.repl.answer_sink = None
        self._spawn(self.store.answer(request.id, request.user_id, key, request.session_id))
        return True

    def _answer(self, request: ApprovalRequest, line: str) -> bool:
        """True when `line` is an answer: a key, or (when words are on) any other text. An
        empty line is taken and answers nothing: the request keeps waiting."""
        if not line.strip():
            return True
        if self._key(request, line):
            return True
        if not self.repl.builder.app.settings.approvals.words or line.startswith("/"):
            return False
        self.repl.answer_sink = None  # until the words are understood (or not)
        self._spawn(self._answer_in_words(request, line))
        return True

    async def _answer_in_words(self, request: ApprovalRequest, line: str) -> None:
        app = self.repl.builder.app
        outcome = await answer_in_words(
            self.store, request, request.user_id, line, reply_classifier(app), self.lang
        )
        self.repl.render.line(f"  {outcome.line}")
        if outcome.decision == "unclear":
            self.repl.render.ask(t("terminal.approval.again", self.lang))
            self._wait_for_answer(request)

    def _spawn(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def resolved(self, request: ApprovalRequest, status: Status) -> None:
        if request in self._queue:  # finished before its turn came (Stop, timeout)
            self._queue.remove(request)
            return
        self.repl.answer_sink = None
        key = f"terminal.approval.resolved.{status}"
        self.repl.render.line(f"  {_explained(key, self.lang, status)}")
        self.repl.render.answered()
        self._asking = None
        if self._queue:
            self._ask(self._queue.pop(0))


def _explained(key: str, lang: Language, fallback: str) -> str:
    """The catalog's explanation of a code; an unknown code is shown as it is."""
    try:
        return t(key, lang)
    except KeyError:
        return fallback
