"""Turn episodes (EDM): what one turn did, kept small enough to learn procedures from."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

TEXT_LIMIT = 1000
# ▲ seed limit: keeping only the first 1,000 chars hid the format instructions people put at
# the end of long requests, so a long text keeps its head and its tail.
TAIL_CHARS = 300
_ELISION = "\n…\n"
ARG_VALUE_LIMIT = 200


class EpisodeToolCall(BaseModel):
    name: str
    args: dict[str, Any] = Field(default_factory=dict)


class Episode(BaseModel):
    agent_id: str
    user_id: str
    session_id: str
    turn: int
    ts_ms: int
    utterance: str
    answer: str
    tool_calls: list[EpisodeToolCall] = Field(default_factory=list)
    outcome: str = "success"
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def kind(self) -> str:
        """The task kind: the first tool the turn used ('chat' without tools)."""
        return self.tool_calls[0].name if self.tool_calls else "chat"


def clip_head_tail(text: str, limit: int = TEXT_LIMIT) -> str:
    """`text` if it fits, else its head and its last `TAIL_CHARS` chars (≤ `limit` in all)."""
    if len(text) <= limit:
        return text
    head = limit - TAIL_CHARS - len(_ELISION)
    return f"{text[:head]}{_ELISION}{text[-TAIL_CHARS:]}"


def shorten_args(args: dict[str, Any]) -> dict[str, Any]:
    """Cut every string value to 200 chars (nested values are stringified first)."""
    return {key: _shorten(value) for key, value in args.items()}


def _shorten(value: Any) -> Any:
    if isinstance(value, bool | int | float) or value is None:
        return value
    text = value if isinstance(value, str) else repr(value)
    return text[:ARG_VALUE_LIMIT]


def make_episode(
    *,
    agent_id: str,
    user_id: str,
    session_id: str,
    turn: int,
    ts_ms: int,
    utterance: str,
    answer: str,
    successful_calls: list[tuple[str, dict[str, Any]]],
    outcome: str,
    overflow: bool,
) -> Episode:
    return Episode(
        agent_id=agent_id,
        user_id=user_id,
        session_id=session_id,
        turn=turn,
        ts_ms=ts_ms,
        utterance=clip_head_tail(utterance),
        answer=clip_head_tail(answer),
        tool_calls=[EpisodeToolCall(name=n, args=shorten_args(a)) for n, a in successful_calls],
        outcome=outcome,
        metadata={"overflow": True} if overflow else {},
    )
