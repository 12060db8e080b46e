"""`/remember reembed` and cosine recall with a real embedder client against a local server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from jarvis.core.slash.memory import SlashScope, memory_command
from jarvis.memory import MemoryItem, MemoryScope, MemoryService, MemorySettings
from jarvis.memory.sqlite_store import SqliteItemStore
from jarvis.model_layer.embeddings import EmbeddingSettings, OllamaEmbedder
from tests.support.scripted_http import Scripted, ScriptedServer, json_body, serve


@pytest.fixture
def ollama() -> Iterator[ScriptedServer]:
    yield from serve()


def vectors(*rows: list[float]) -> Scripted:
    return Scripted(content_type="application/json", chunks=json_body({"embeddings": list(rows)}))


async def test_reembed_then_a_restatement_is_recalled_by_cosine(
    tmp_path: Path, ollama: ScriptedServer
) -> None:
    store = SqliteItemStore(tmp_path / "memory.db")
    plain = MemoryService(MemorySettings(), store)
    scope = SlashScope("main", "u", "s1", 0, "en", 1)
    assert "no embedder" in (await memory_command(plain, scope, "/remember", "reembed") or "")
    for n, text in ((1, "dog food brand"), (2, "puppy meal schedule")):
        await store.add(MemoryItem(id=f"i{n}", kind="semantic", agent_id="main", user_id="u",
                                   text=text, ts_ms=n))  # fmt: skip
    embedder = OllamaEmbedder(EmbeddingSettings(provider="ollama", base_url=ollama.url))
    memory = MemoryService(MemorySettings(), store, embedder=embedder)
    ollama.add(vectors([1.0, 0.0]), vectors([0.0, 1.0]))  # newest first: i2, then i1
    assert await memory_command(memory, scope, "/remember", "reembed") == "re-embedded 2 memories."
    ollama.add(vectors([0.9, 0.1]))  # the query "pets"
    block = await memory.observe(MemoryScope("main", "u", "s2", 1), "pets")
    assert "puppy meal schedule" in block  # no shared word: found by cosine
    assert "dog food" not in block  # no shared word, and not close
    await store.aclose()
