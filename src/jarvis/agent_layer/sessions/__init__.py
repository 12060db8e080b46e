"""Session stores: memory and JSONL files (PostgreSQL lives with the scale-out stores)."""

from jarvis.agent_layer.sessions.base import (
    BACKGROUND_PREFIX,
    SessionEntry,
    SessionInfo,
    SessionNotFound,
    SessionStore,
    is_background,
)
from jarvis.agent_layer.sessions.jsonl_store import JsonlSessionStore
from jarvis.agent_layer.sessions.memory_store import MemorySessionStore

__all__ = [
    "BACKGROUND_PREFIX",
    "JsonlSessionStore",
    "MemorySessionStore",
    "SessionEntry",
    "SessionInfo",
    "SessionNotFound",
    "SessionStore",
    "is_background",
]
