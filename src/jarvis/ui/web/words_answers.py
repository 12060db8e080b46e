"""A prompt typed while an approval waits in the session is an answer in words.

The decision (`core/approvals/words_answer.py`) goes through the same pending store as the
buttons, so the first answer still wins; every tab of the session is told what was understood
with `{"type": "approval_words", ...}` (see docs/protocol.md).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from jarvis.app.approval_words import reply_classifier
from jarvis.common.i18n import Language
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.core.approvals.words_answer import answer_in_words
from jarvis.core.session import AgentSession
from jarvis.ui.web.broker import ApprovalBroker, Connection

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp


# Answers being decided; kept referenced until done.
_ANSWERING: set[asyncio.Task[None]] = set()


def waiting_request(state: WebApp, session_id: str) -> ApprovalRequest | None:
    """The oldest approval this session waits on, when words may answer it."""
    if not state.assembly.settings.approvals.words:
        return None
    broker = state.brokers.existing(session_id)
    if broker is None or not broker.pending:
        return None
    return next(iter(broker.pending.values()))


def start_answer(
    state: WebApp,
    session: AgentSession,
    connection: Connection,
    request: ApprovalRequest,
    text: str,
) -> None:
    broker = state.brokers.for_session(session.id)
    lang = session.setup.language  # the line is shown in the session's language
    task = asyncio.create_task(answer_with_words(state, broker, connection, request, text, lang))
    _ANSWERING.add(task)
    task.add_done_callback(_ANSWERING.discard)


async def answer_with_words(
    state: WebApp,
    broker: ApprovalBroker,
    connection: Connection,
    request: ApprovalRequest,
    text: str,
    lang: Language,
) -> None:
    outcome = await answer_in_words(
        state.assembly.pending,
        request,
        connection.user_id,
        text,
        reply_classifier(state.assembly),
        lang,
    )
    message = {
        "type": "approval_words",
        "id": request.id,
        "text": text,
        "decision": outcome.decision,
        "line": outcome.line,
    }
    if outcome.result not in (None, "ok"):
        # Not ours to tell the other tabs: this tab's answer came too late or was refused.
        connection.send({**message, "result": outcome.result})
        return
    broker.broadcast(message)
