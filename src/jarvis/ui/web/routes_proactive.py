"""Web API of speaking first and the user model: feedback on a proactive card (👍 / 👎 / "do it"
/ dismiss), the feedback learner's view and resets, and the "About me" card (list / set /
forget / pin — the same functions `jarvis me` uses). Each person sees and changes only their
own facts and cards; the learner is the agent's (every person of it sees and resets it)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from jarvis.app.proactive import learned
from jarvis.app.proactive.feedback import muted_until
from jarvis.app.thinking_setup import user_model_store
from jarvis.common.clock import new_id
from jarvis.core.user_model import FIELDS, UserModelFileError, forget, pin, set_by_person

if TYPE_CHECKING:
    from jarvis.core.user_model import Fact
    from jarvis.ui.web.web_app import WebApp


class FeedbackBody(BaseModel):
    message_id: str = Field(max_length=200)
    feedback: Literal["thumbs_up", "thumbs_down", "do_it", "dismiss", "stop_topic"]


class ResetBody(BaseModel):
    agent_id: str = Field(min_length=1, max_length=100)
    kind: str = Field("", max_length=40)  # one kind, or
    topic: str = Field("", max_length=100)  # one muted topic; neither: everything


class SetBody(BaseModel):
    field: str = Field(max_length=40)
    value: str = Field(min_length=1, max_length=300)


class FactBody(BaseModel):
    id: str = Field(min_length=4, max_length=64)
    pinned: bool = True


def register(app: FastAPI, state: WebApp) -> None:
    speaker = state.unattended.speaker
    store = user_model_store(state.assembly)
    clock = state.assembly.clock

    @app.post("/api/proactive/feedback")
    async def feedback(body: FeedbackBody, request: Request) -> dict[str, Any]:
        now = clock.now_ms()
        prompt = speaker.feedback(request.state.user, body.message_id, body.feedback, now)
        if prompt is None:
            raise HTTPException(404, "no such proactive message of yours")
        # "do it": the window sends this as an ordinary turn (the tool gate asks as always).
        # A 👎 that muted the topic: the card says so, and until when.
        said = learned.said_of(speaker.store, body.message_id)
        until = muted_until(speaker.store, said[0], said[1].topic, now) if said else None
        topic = said[1].topic if said and until else None
        return {"ok": True, "prompt": prompt or None, "muted_topic": topic, "muted_until_ms": until}

    @app.get("/api/proactive/learner")
    async def learner_view() -> dict[str, Any]:
        return {"agents": learned.views(speaker, clock.now_ms())}

    @app.post("/api/proactive/learner/reset")
    async def learner_reset(body: ResetBody) -> dict[str, Any]:
        if body.agent_id not in speaker.builders:
            raise HTTPException(404, "no such agent")
        known = learned.reset(speaker.store, body.agent_id, body.kind, body.topic)
        if not known:
            raise HTTPException(404, "no such kind or muted topic")
        return {"ok": True}

    async def change(user: str, edit: Any) -> Any:
        try:
            return await store.update(user, edit)
        except (OSError, UserModelFileError) as exc:
            raise HTTPException(409, f"{store.path.name}: {exc}") from None

    @app.get("/api/me")
    async def facts(request: Request) -> dict[str, Any]:
        shown = [f for f in store.facts(request.state.user) if f.status != "retired"]
        return {"fields": list(FIELDS), "facts": [dataclasses.asdict(f) for f in shown]}

    @app.post("/api/me/set")
    async def set_fact(body: SetBody, request: Request) -> dict[str, Any]:
        if body.field not in FIELDS or not body.value.strip():
            raise HTTPException(422, f"field must be one of: {', '.join(FIELDS)}")

        name = next(f for f in FIELDS if f == body.field)  # the vocabulary's own literal

        def edit(current: list[Fact]) -> tuple[list[Fact], None]:
            return set_by_person(current, name, body.value, clock.now_ms(), new_id()[:12]), None

        await change(request.state.user, edit)
        return {"ok": True}

    @app.post("/api/me/forget")
    async def forget_fact(body: FactBody, request: Request) -> dict[str, Any]:
        hit = await change(request.state.user, lambda f: forget(f, body.id, clock.now_ms()))
        if not hit:
            raise HTTPException(404, "no such active fact")
        return {"ok": True}

    @app.post("/api/me/pin")
    async def pin_fact(body: FactBody, request: Request) -> dict[str, Any]:
        hit = await change(request.state.user, lambda f: pin(f, body.id, body.pinned))
        if not hit:
            raise HTTPException(404, "no such active fact")
        return {"ok": True}
