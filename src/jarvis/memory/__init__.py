"""Memory: MemoryService (injection + episodes) and its item stores."""

from jarvis.memory.config import MemorySettings
from jarvis.memory.episodes import Episode, make_episode
from jarvis.memory.service import MemoryScope, MemoryService
from jarvis.memory.store import InMemoryItemStore, ItemStore, MemoryItem

__all__ = [
    "Episode",
    "InMemoryItemStore",
    "ItemStore",
    "MemoryItem",
    "MemoryScope",
    "MemoryService",
    "MemorySettings",
    "make_episode",
]
