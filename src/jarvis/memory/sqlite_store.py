"""Long-term memory in one SQLite file (`~/.jarvis/memory.db`): the files backend's default.

Ranked recall uses FTS5 with the `trigram` tokenizer: Korean has no spaces inside words and
particles attach to them ("배포는"), so matching on three-character pieces finds "배포 일정"
from "배포는 언제"; words of two characters (common in Korean) fall back to LIKE. The newest
`CANDIDATES` matches are ranked in the process by shared words, like every other store.

# ponytail: queries run on the event loop thread. Each is a local indexed read or one insert
# (tens of microseconds); a thread hop per call would cost more than it saves.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from jarvis.memory.episodes import Episode
from jarvis.memory.store import (
    CANDIDATES,
    EPISODE_LIMIT,
    ItemKind,
    ItemStore,
    MemoryItem,
    rank_matches,
    tokens,
)

_SCHEMA = """
PRAGMA journal_mode = WAL;
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
        with self.db:
            self.db.execute(
                f"INSERT OR IGNORE INTO items ({_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (item.id, item.kind, item.agent_id, item.user_id, item.text, item.session_id,
                 item.turn, item.ts_ms, episode, embedding),
            )  # fmt: skip
            if item.kind == "episode":
                self._cap_episodes(item.agent_id, item.user_id)

    def _cap_episodes(self, agent_id: str, user_id: str) -> None:
        self.db.execute(
            "DELETE FROM items WHERE agent_id = ? AND user_id = ? AND kind = 'episode' AND seq <= "
            "(SELECT seq FROM items WHERE agent_id = ? AND user_id = ? AND kind = 'episode' "
            "ORDER BY seq DESC LIMIT 1 OFFSET ?)",
            (agent_id, user_id, agent_id, user_id, self.episode_limit),
        )

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        return self._select(
            f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? AND kind = ? "
            "ORDER BY seq",
            (agent_id, user_id, kind),
        )

    async def of_kinds(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...]
    ) -> dict[ItemKind, list[MemoryItem]]:
        marks = ",".join("?" * len(kinds))
        items = self._select(
            f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? "
            f"AND kind IN ({marks}) ORDER BY seq",
            (agent_id, user_id, *kinds),
        )
        return {kind: [item for item in items if item.kind == kind] for kind in kinds}

    async def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        words = sorted(tokens(query))
        if not words or not kinds or limit <= 0:
            return []
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
        candidates = self._select(
            f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? "
            f"AND kind IN ({','.join('?' * len(kinds))}) AND ({' OR '.join(matches)}) "
            f"ORDER BY seq DESC LIMIT {CANDIDATES}",
            tuple(params),
        )
        return rank_matches(candidates, query, limit)

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
        return cursor.rowcount > 0

    async def replace_episode(
        self, agent_id: str, user_id: str, item_id: str, episode: Episode
    ) -> None:
        with self.db:
            self.db.execute(
                "UPDATE items SET episode = ? WHERE id = ? AND agent_id = ? AND user_id = ?",
                (episode.model_dump_json(), item_id, agent_id, user_id),
            )

    async def set_embedding(self, item_id: str, embedding: list[float] | None) -> None:
        value = None if embedding is None else json.dumps(embedding)
        with self.db:
            self.db.execute("UPDATE items SET embedding = ? WHERE id = ?", (value, item_id))

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
