"""Long-term memory in one SQLite file (`~/.jarvis/memory.db`): the files backend's default.

Recall ranks with the same in-process word index as the in-memory store (`WordIndex`, built
from the file on first use and rebuilt when another process wrote: `PRAGMA data_version`), so a
turn's recall stays ~0.1 ms however many items there are. When no indexed word matches, FTS5
with the `trigram` tokenizer searches substrings: Korean compounds hide words ("출장계획서"
holds "계획"), which only three-character pieces find; words of two characters use LIKE.

# ponytail: queries run on the event loop thread. Each is a local indexed read or one insert
# (tens of microseconds); a thread hop per call would cost more than it saves.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jarvis.memory.episodes import Episode
from jarvis.memory.store import (
    CANDIDATES,
    EPISODE_LIMIT,
    ItemKind,
    ItemStore,
    MemoryItem,
    shared_words,
    tokens,
)
from jarvis.memory.word_index import WordIndex

_SCHEMA = """
PRAGMA journal_mode = WAL;
-- WAL + NORMAL: a commit survives a crash of Jarvis, only a power cut may lose the last ones;
-- FULL would fsync on every episode (milliseconds a turn).
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS items (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    session_id TEXT NOT NULL DEFAULT '',
    turn INTEGER NOT NULL DEFAULT 0,
    ts_ms INTEGER NOT NULL DEFAULT 0,
    episode TEXT,
    embedding TEXT
);
CREATE INDEX IF NOT EXISTS items_scope ON items (agent_id, user_id, kind, seq);
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(
    text, content='items', content_rowid='seq', tokenize='trigram'
);
CREATE TRIGGER IF NOT EXISTS items_ai AFTER INSERT ON items BEGIN
    INSERT INTO items_fts (rowid, text) VALUES (new.seq, new.text);
END;
CREATE TRIGGER IF NOT EXISTS items_ad AFTER DELETE ON items BEGIN
    INSERT INTO items_fts (items_fts, rowid, text) VALUES ('delete', old.seq, old.text);
END;
"""
_FIELDS = "id, kind, agent_id, user_id, text, session_id, turn, ts_ms, episode, embedding"
_TRIGRAM = 3


class SqliteItemStore(ItemStore):
    def __init__(self, path: Path, episode_limit: int = EPISODE_LIMIT) -> None:
        self.path = path
        self.episode_limit = episode_limit
        self._db: sqlite3.Connection | None = None
        self._index = WordIndex()
        self._index_version: int | None = None
        # of_kinds answers (the listed sections, read every turn), kept until a write changes them.
        self._listed: dict[
            tuple[str, str, tuple[ItemKind, ...]], dict[ItemKind, list[MemoryItem]]
        ] = {}

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:  # opened lazily too: CLI commands use the store without `open`
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.row_factory = sqlite3.Row
            self._db.executescript(_SCHEMA)
        return self._db

    async def open(self) -> None:
        _ = self.db

    async def aclose(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def add(self, item: MemoryItem) -> None:
        episode = None if item.episode is None else item.episode.model_dump_json()
        embedding = None if item.embedding is None else json.dumps(item.embedding)
        with self._transaction():
            self.db.execute(
                f"INSERT OR IGNORE INTO items ({_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (item.id, item.kind, item.agent_id, item.user_id, item.text, item.session_id,
                 item.turn, item.ts_ms, episode, embedding),
            )  # fmt: skip
            if item.kind == "episode":
                self._cap_episodes(item.agent_id, item.user_id)
        self._index.add(item.id, item.agent_id, item.user_id, item.kind, item.text)
        self._forget_listed(item.agent_id, item.user_id, item.kind)

    def _cap_episodes(self, agent_id: str, user_id: str) -> None:
        old = self.db.execute(
            "SELECT id FROM items WHERE agent_id = ? AND user_id = ? AND kind = 'episode' "
            "AND seq <= (SELECT seq FROM items WHERE agent_id = ? AND user_id = ? "
            "AND kind = 'episode' "
            "ORDER BY seq DESC LIMIT 1 OFFSET ?)",
            (agent_id, user_id, agent_id, user_id, self.episode_limit),
        ).fetchall()
        for (item_id,) in old:
            self.db.execute("DELETE FROM items WHERE id = ?", (item_id,))
            self._index.remove(item_id)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One commit for the insert and the cap (autocommit would commit each statement)."""
        self.db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _forget_listed(self, agent_id: str, user_id: str, kind: str | None = None) -> None:
        for key in [k for k in self._listed if k[:2] == (agent_id, user_id)]:
            if kind is None or kind in key[2]:
                del self._listed[key]

    def _fresh_index(self) -> WordIndex:
        """The word index, rebuilt when another connection changed the file since (the
        cached listings are dropped then too)."""
        version = self.db.execute("PRAGMA data_version").fetchone()[0]
        if version != self._index_version:
            self._listed.clear()
            self._index.clear()
            for row in self.db.execute(
                "SELECT id, agent_id, user_id, kind, text FROM items ORDER BY seq"
            ):
                self._index.add(*row)
            self._index_version = version
        return self._index

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        return self._select(
            f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? AND kind = ? "
            "ORDER BY seq",
            (agent_id, user_id, kind),
        )

    async def of_kinds(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...]
    ) -> dict[ItemKind, list[MemoryItem]]:
        self._fresh_index()
        key = (agent_id, user_id, kinds)
        cached = self._listed.get(key)
        if cached is None:
            marks = ",".join("?" * len(kinds))
            items = self._select(
                f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? "
                f"AND kind IN ({marks}) ORDER BY seq",
                (agent_id, user_id, *kinds),
            )
            cached = {kind: [item for item in items if item.kind == kind] for kind in kinds}
            self._listed[key] = cached
        return {kind: list(found) for kind, found in cached.items()}

    async def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        words = sorted(tokens(query))
        if not words or not kinds or limit <= 0:
            return []
        found = self._fresh_index().search(agent_id, user_id, query, set(kinds), limit)
        if found:
            return self._read_ranked(found)
        return self._substring_search(agent_id, user_id, words, kinds, limit)

    def _read_ranked(self, ranked: list[tuple[str, int]]) -> list[MemoryItem]:
        """The ranked items (only the few winners) with their episode record: recall decides
        on the episode's outcome and the person's words (`recall_rules`)."""
        ids = [item_id for item_id, _ in ranked]
        rows = self._select(
            f"SELECT {_FIELDS} FROM items WHERE id IN ({','.join('?' * len(ids))})",
            tuple(ids),
        )
        by_id = {item.id: item for item in rows}
        return [
            by_id[i].model_copy(update={"relevance": score}) for i, score in ranked if i in by_id
        ]

    def _substring_search(
        self, agent_id: str, user_id: str, words: list[str], kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        long_words = [w for w in words if len(w) >= _TRIGRAM]
        short_words = [w for w in words if len(w) < _TRIGRAM]
        matches: list[str] = []
        params: list[Any] = [agent_id, user_id, *sorted(kinds)]
        if long_words:
            matches.append("seq IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)")
            params.append(" OR ".join(f'"{w}"' for w in long_words))
        for word in short_words:
            matches.append("text LIKE ?")
            params.append(f"%{word}%")
        # Rank on id and text only; whole rows (episode JSON) are read for the winners alone.
        rows = self.db.execute(
            f"SELECT id, text FROM items WHERE agent_id = ? AND user_id = ? "
            f"AND kind IN ({','.join('?' * len(kinds))}) AND ({' OR '.join(matches)}) "
            f"ORDER BY seq DESC LIMIT {CANDIDATES}",
            tuple(params),
        ).fetchall()
        shared = {row["id"]: shared_words(set(words), row["text"]) for row in rows}
        order = {row["id"]: index for index, row in enumerate(rows)}
        best = sorted((i for i in shared if shared[i] > 0), key=lambda i: (-shared[i], order[i]))
        return self._read_ranked([(i, shared[i]) for i in best[:limit]])

    async def latest(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...], limit: int
    ) -> list[MemoryItem]:
        return self._select(
            f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? "
            f"AND kind IN ({','.join('?' * len(kinds))}) ORDER BY seq DESC LIMIT ?",
            (agent_id, user_id, *kinds, limit),
        )

    async def delete(self, agent_id: str, user_id: str, item_id: str) -> bool:
        with self.db:
            cursor = self.db.execute(
                "DELETE FROM items WHERE id = ? AND agent_id = ? AND user_id = ?",
                (item_id, agent_id, user_id),
            )
        if cursor.rowcount > 0:
            self._index.remove(item_id)
            self._forget_listed(agent_id, user_id)
        return cursor.rowcount > 0

    async def replace_episode(
        self, agent_id: str, user_id: str, item_id: str, episode: Episode
    ) -> None:
        with self.db:
            self.db.execute(
                "UPDATE items SET episode = ? WHERE id = ? AND agent_id = ? AND user_id = ?",
                (episode.model_dump_json(), item_id, agent_id, user_id),
            )
        self._forget_listed(agent_id, user_id, "episode")

    async def set_embedding(self, item_id: str, embedding: list[float] | None) -> None:
        value = None if embedding is None else json.dumps(embedding)
        with self.db:
            self.db.execute("UPDATE items SET embedding = ? WHERE id = ?", (value, item_id))
        self._listed.clear()

    def _select(self, query: str, params: tuple[Any, ...]) -> list[MemoryItem]:
        return [_item(dict(row)) for row in self.db.execute(query, params)]


def _item(row: dict[str, Any]) -> MemoryItem:
    episode = row.pop("episode")
    embedding = row.pop("embedding")
    return MemoryItem(
        **row,
        episode=None if episode is None else Episode.model_validate_json(episode),
        embedding=None if embedding is None else json.loads(embedding),
    )
