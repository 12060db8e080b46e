"""Client → server WebSocket messages (see docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter


class PromptMessage(BaseModel):
    type: Literal["prompt"]
    text: str = Field(max_length=100_000)


class AbortMessage(BaseModel):
    type: Literal["abort"]


class ApprovalMessage(BaseModel):
    type: Literal["approval"]
    id: str
    answer: Literal["allow", "always", "deny"]


class CommandMessage(BaseModel):
    type: Literal["command"]
    text: str


ClientMessage = Annotated[
    PromptMessage | AbortMessage | ApprovalMessage | CommandMessage, Field(discriminator="type")
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse_client_message(raw: str) -> ClientMessage:
    return _ADAPTER.validate_python(json.loads(raw))
