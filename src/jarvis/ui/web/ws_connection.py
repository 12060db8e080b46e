"""One WebSocket connection: events out, client messages in (see docs/protocol.md).

A message that cannot be a client message (binary, too large, nested too deeply, not valid)
gets `{"type": "error", ...}` and the connection stays usable.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocket

from jarvis.agent_layer.events import MessageUpdate
from jarvis.common.i18n import Language, t
from jarvis.common.storage_errors import StorageUnavailable, describe_storage_error
from jarvis.core.session import AgentSession
from jarvis.ui.web.broker import Connection, frame
from jarvis.ui.web.commands import HudScreen, run_command, run_typed
from jarvis.ui.web.protocol import ClientMessage, parse_client_message
from jarvis.ui.web.routes_agents import answering_model
from jarvis.ui.web.security import MAX_BODY_BYTES
from jarvis.ui.web.words_answers import start_answer, waiting_request

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp

ANSWER_STATUS = {"ok": 200, "not_found": 404, "forbidden": 403, "conflict": 409, "invalid": 422}


async def serve_connection(
    state: WebApp, ws: WebSocket, session: AgentSession, user: str, *, batched: bool = False
) -> None:
    """`batched` (`/ws?batch=1`): events ready together go out as one frame, a JSON array."""
    connection = Connection(user)
    broker = state.brokers.for_session(session.id)
    state.marks.watch(session)  # stops and run times come back after a reload
    unsubscribe = session.subscribe(_sink(connection))
    writer = asyncio.create_task(_write(ws, connection, batched))
    connection.send(
        {
            "type": "session",
            "session": session.info.model_dump(),
            "running": session.running,
            "model": answering_model(state, session.setup.model),  # in the HUD's header
            "words": state.assembly.settings.approvals.words,  # the message box answers
        }
    )
    broker.attach(connection)
    # proactive messages; the passes the "thoughts" view shows are marked for a reload
    leave_hub = state.unattended.hub.attach(user, state.marks.passes(session.id, connection.send))
    await state.show_stored_requests(session)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                connection.send(
                    {"type": "error", "message": t("web.binary_frame", session.setup.language)}
                )
                continue
            try:
                await _handle(state, session, connection, raw)
            except StorageUnavailable as exc:  # one failed handler never ends the connection
                cause = describe_storage_error(exc)
                connection.send(
                    {
                        "type": "error",
                        "message": t(
                            "web.storage_unavailable", session.setup.language, cause=cause
                        ),
                        "code": 503,
                    }
                )
    finally:
        broker.detach(connection)
        leave_hub()
        unsubscribe()
        connection.close()
        with contextlib.suppress(Exception):
            await writer


_last_event: tuple[BaseModel, dict[str, Any], dict[str, Any] | str] | None = None


def event_json(event: BaseModel) -> dict[str, Any]:
    """The event as the wire sends it, dumped once however many tabs show the session (every
    subscriber is called in turn with the same event; the dict is never changed after)."""
    return _dumped(event)[0]


def event_wire(event: BaseModel) -> dict[str, Any] | str:
    """What a connection queues for the event: streamed text as a dict (merged with the next
    chunks there), anything else as its JSON text — made once however many tabs show it."""
    return _dumped(event)[1]


def _dumped(event: BaseModel) -> tuple[dict[str, Any], dict[str, Any] | str]:
    global _last_event
    if _last_event is not None and _last_event[0] is event:
        return _last_event[1], _last_event[2]
    if isinstance(event, MessageUpdate):  # most events of a turn: the streamed text
        data: dict[str, Any] = {
            "type": event.type,
            "text_delta": event.text_delta,
            "thinking_delta": event.thinking_delta,
        }
        wire: dict[str, Any] | str = data
    else:
        data = event.model_dump(mode="json")
        wire = frame(data)
    _last_event = (event, data, wire)
    return data, wire


def _sink(connection: Connection) -> Callable[[BaseModel], None]:
    """The session's events into this connection's outbox; streamed text (most events of a
    turn) as its two strings, without a dict or a dump per chunk."""
    update, send = connection.update, connection.send

    def sink(event: BaseModel) -> None:
        if type(event) is MessageUpdate:
            update(event.text_delta, event.thinking_delta)
        else:
            send(event_wire(event))

    return sink


async def _write(ws: WebSocket, connection: Connection, batched: bool) -> None:
    """Send the outbox in order until the connection closes; what piled up while a frame was
    being written goes out together, streamed text merged (see `Connection`) — batched, as one
    frame holding the array of those events (one socket write instead of one per event)."""
    while (frames := await connection.frames()) is not None:
        if batched and len(frames) > 1:
            frames = ["[" + ",".join(frames) + "]"]
        try:
            for text in frames:
                await ws.send_text(text)
        except Exception:  # the socket is gone; the reader side cleans up
            return


def _parse(raw: str, language: Language) -> ClientMessage | str:
    """The message, or the line to send back when it is not one."""
    if len(raw) > MAX_BODY_BYTES:  # the server's frame limit usually stops these first
        return t("web.message_too_large", language, limit=MAX_BODY_BYTES)
    try:
        return parse_client_message(raw)
    except RecursionError:
        return t("web.message_too_deep", language)
    except (ValidationError, ValueError) as exc:
        return t("web.bad_message", language, detail=str(exc)[:500])


async def _handle(state: WebApp, session: AgentSession, connection: Connection, raw: str) -> None:
    message = _parse(raw, session.setup.language)
    if isinstance(message, str):
        connection.send({"type": "error", "message": message})
        return
    if not state.limiter.allow(connection.user_id):
        connection.send(
            {"type": "error", "message": t("web.rate_limited", session.setup.language), "code": 429}
        )
        return
    if message.type == "prompt":
        # A command typed into the HUD's box runs as one (the command table decides which).
        if await run_typed(state.commands, HudScreen(state, session, connection), message.text):
            return
        waiting = waiting_request(state, session.id)
        if waiting is None:
            state.start_turn(session, message.text)
        else:  # decided beside the reader: a slow classifier never holds up Stop or a button
            start_answer(state, session, connection, waiting, message.text)
    elif message.type == "abort":
        session.abort()
    elif message.type == "approval":
        pending = state.assembly.pending
        result = await pending.answer(message.id, connection.user_id, message.answer, session.id)
        connection.send(
            {
                "type": "approval_answer",
                "id": message.id,
                "result": result,
                "status": ANSWER_STATUS[result],
            }
        )
    elif message.type == "command":
        await run_command(state.commands, HudScreen(state, session, connection), message.text)
