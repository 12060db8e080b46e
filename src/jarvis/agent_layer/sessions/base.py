"""The session store seam: append one turn's messages, read back only the recent window."""

from __future__ import annotations

from pydantic import BaseModel, Field, TypeAdapter

from jarvis.model_layer.messages import Message


class SessionInfo(BaseModel):
    id: str
    agent_id: str = "main"
    user_id: str = "local"
    created_ms: int = 0
    updated_ms: int = 0
    title: str = ""
    turns: int = 0


# Sessions of background work (a Focus task's planning call and steps) have ids that start with
# this: they are kept and open by id, but are not the person's conversations — not listed,
# not searched, and their turns are not remembered as the person's episodes.
BACKGROUND_PREFIX = "bg-"


def is_background(session_id: str) -> bool:
    return session_id.startswith(BACKGROUND_PREFIX)


class SessionEntry(BaseModel):
    """One history record: a message, the turn it belongs to and when it was written."""

    turn: int
    ts_ms: int
    message: Message = Field(discriminator="role")


MESSAGE_ADAPTER: TypeAdapter[Message] = TypeAdapter(Message)


class SessionNotFound(KeyError):
    pass


class SessionStore:
    """Base class for session stores (memory, JSONL, PostgreSQL).

    Per-turn cost must not grow with the session: `recent` reads a bounded window, and
    `append` writes only the new entries.
    """

    async def open(self) -> None:
        """Connect (stores with a server); the default has nothing to open."""

    async def aclose(self) -> None:
        """Release resources; the default has none."""

    async def create(self, info: SessionInfo) -> None:
        raise NotImplementedError

    async def get_info(self, session_id: str) -> SessionInfo | None:
        raise NotImplementedError

    async def list_sessions(
        self, *, agent_id: str | None = None, user_id: str | None = None
    ) -> list[SessionInfo]:
        """Sessions newest first, optionally for one agent and/or user."""
        raise NotImplementedError

    async def append(self, session_id: str, entries: list[SessionEntry]) -> None:
        """Append one turn's entries; raises `SessionNotFound` for an unknown session."""
        raise NotImplementedError

    async def recent(self, session_id: str, turns: int) -> list[SessionEntry]:
        """The entries of the last `turns` turns, oldest first."""
        raise NotImplementedError

    async def history(self, session_id: str, limit: int | None = None) -> list[SessionEntry]:
        """The last `limit` entries (every entry when None), oldest first (for history views;
        not on the per-turn path)."""
        raise NotImplementedError

    async def rename(self, session_id: str, title: str) -> bool:
        """Set the title a person chose (it stays, later turns do not replace it); False when
        there is no such session."""
        raise NotImplementedError

    async def delete(self, session_id: str) -> bool:
        """Remove the session and its history; False when there is no such session."""
        raise NotImplementedError


TITLE_MAX = 120


def clean_title(title: str) -> str:
    """A title as lists show it: one line, trimmed, bounded."""
    return " ".join(title.split())[:TITLE_MAX]
