"""Memory: MemoryService (injection + episodes) and its item stores."""

from jarvis.memory.config import MemorySettings
from jarvis.memory.episodes import Episode, make_episode
from jarvis.memory.service import MemoryScope, MemoryService
from jarvis.memory.store import InMemoryItemStore, ItemStore, MemoryItem
from jarvis.memory.working import InMemoryWorkingStore, WorkingMemory, WorkingStore

__all__ = [
    "Episode",
    "InMemoryItemStore",
    "InMemoryWorkingStore",
    "ItemStore",
    "MemoryItem",
    "MemoryScope",
    "MemoryService",
    "MemorySettings",
    "WorkingMemory",
    "WorkingStore",
    "make_episode",
]
