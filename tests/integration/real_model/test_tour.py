"""The README's tour through the real Jarvis server (WebSocket, like the HUD) with a real model:
plain chat, a tool call denied, the same allowed, a context overflow, and the AGENDA judge."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from jarvis.app.infra import build_app
from jarvis.app.settings import Settings
from jarvis.common.i18n import t
from tests.integration.real_model.conftest import RealModel
from tests.integration.real_model.test_provider import CALL_GIT_STATUS
from tests.support.live_server import LiveServer, Tab

WAIT_SEC = 90.0  # a bound on a CPU-only model on a shared machine, not a measurement
# The tour has several model calls, each bounded by WAIT_SEC: the file's hang guard covers them all.
pytestmark = pytest.mark.timeout(900)


@pytest.fixture
def jarvis(real_model: RealModel, tmp_path: Path) -> Iterator[LiveServer]:
    model: dict[str, Any] = {
        "provider": "openai",
        "base_url": real_model.base_url,
        "model": real_model.model,
        "max_tokens": 24,
        "temperature": 0.0,
        "max_retries": 0,
    }
    config = Settings(
        home=tmp_path,
        workspace=tmp_path,
        language="en",
        model={**model, "tool_choice": "required"},
        openloop={"model": model},
        loop={"max_turns": 2, "overflow_resume": False},
        # Recalled episodes are earlier turns in the message: the tiny model follows an
        # instruction only without them (see `fresh`). Background work stays off too.
        memory={"enabled": False},
        scheduler={"enabled": False},
        procedures={"learn": False, "reflect": False},
        security={"input_max_length": 60_000},
        web={"token": secrets.token_urlsafe(16)},
    )
    server = LiveServer(build_app(config))
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def turn(tab: Tab, text: str, answer: str | None = None) -> list[dict[str, Any]]:
    """One prompt to its agent_end/agent_error; approval requests get `answer` (else deny)."""
    await tab.send(type="prompt", text=text)
    seen: list[dict[str, Any]] = []
    while True:
        event = await _next(tab)
        seen.append(event)
        if event["type"] == "approval_request":
            await tab.send(type="approval", id=event["id"], answer=answer or "deny")
            answer = None  # one allow at most: a second call in the same turn is denied
        if event["type"] in ("agent_end", "agent_error"):
            return seen


async def _next(tab: Tab) -> dict[str, Any]:
    if tab.events:
        return tab.events.pop(0)
    async with asyncio.timeout(WAIT_SEC):
        event: dict[str, Any] = json.loads(await tab.ws.recv())
    return event


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


async def fresh(jarvis: LiveServer) -> Tab:
    """A new session: the tiny model follows an instruction only without earlier turns."""
    tab = await Tab.open(jarvis.ws_url())
    await tab.next("session")
    return tab


async def test_the_tour_with_a_real_model(jarvis: LiveServer) -> None:
    # 1. Plain chat, streamed.
    tab = await fresh(jarvis)
    events = await turn(tab, "Hello! Who are you?")
    assert not of(events, "agent_error"), of(events, "agent_error")
    assert len([e for e in of(events, "message_update") if e.get("text_delta")]) > 1

    # 2. A tool call that asks first; DENY ends the turn with the fixed line.
    tab = await fresh(jarvis)
    events = await turn(tab, CALL_GIT_STATUS, answer="deny")
    (request,) = of(events, "approval_request")
    assert request["pattern"] == "git status"
    assert of(events, "approval_resolved")[0]["status"] == "deny"
    texts = "".join(e.get("text_delta") or "" for e in of(events, "message_update"))
    assert t("approval.denied_turn_end", "en", tools="bash") in texts

    # 3. Again, ALLOW: it runs once (git in a folder that is no repository is still a run).
    tab = await fresh(jarvis)
    events = await turn(tab, CALL_GIT_STATUS, answer="allow")
    end = of(events, "tool_execution_end")[0]
    assert end["decision"]["reason"] == "user_once"

    # 4. A context overflow is one clear line naming both sizes, not a blank answer.
    events = await turn(tab, "hello world " * 4500)
    (error,) = of(events, "agent_error")
    assert error["kind"] == "context_overflow" and "/new" in error["message"]

    # 5. The AGENDA judge runs beside the reply and never breaks it.
    tab = await fresh(jarvis)
    events = await turn(tab, "I must send the quarterly report to my manager by 3 pm tomorrow.")
    assert of(events, "agent_end") and not of(events, "agent_error")
    async with httpx.AsyncClient(base_url=jarvis.url, headers=jarvis.headers) as http:
        view = (await http.get("/api/agenda")).json()
    assert set(view) >= {"open", "closed"}
