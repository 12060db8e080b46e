"""Long-term memory in one SQLite file (`~/.jarvis/memory.db`): the files backend's default.

Recall ranks with the same in-process word index as the in-memory store (`WordIndex`, built
from the file on first use and rebuilt when another process wrote: `PRAGMA data_version`), so a
turn's recall stays ~0.1 ms however many items there are. When no indexed word matches, FTS5
with the `trigram` tokenizer searches substrings: Korean compounds hide words ("출장계획서"
holds "계획"), which only three-character pieces find; words of two characters use LIKE.

Turn episodes are written in batches, off the turn path: `add` puts an episode in the word
index and a pending batch at once (this process recalls it from the next turn on), and the batch
is one transaction `FLUSH_DELAY_SEC` later, at `FLUSH_BATCH` episodes, before any read that
goes to the file, and on `aclose` (a clean stop loses nothing). A `kill -9` or power cut loses
at most the pending batch: the episodes of the last `FLUSH_DELAY_SEC`, never more than
`FLUSH_BATCH` (the turns themselves are in the session files before `agent_end`). Other
processes see an episode once its batch is written. Facts and other explicit memories are
written at once. Items read for recall are kept by id (`_ITEM_CACHE` of them), so a turn's
recall reads nothing from the file unless another process wrote (`PRAGMA data_version`).

# ponytail: queries run on the event loop thread. Each is a local indexed read or one insert
# (tens of microseconds); a thread hop per call would cost more than it saves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from jarvis.common.logging import get_logger
from jarvis.memory.episodes import Episode
from jarvis.memory.store import (
    CANDIDATES,
    EPISODE_LIMIT,
    ItemKind,
    ItemStore,
    MemoryItem,
    scored,
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
_INSERT = f"INSERT OR IGNORE INTO items ({_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
# Episodes wait at most this long, and at most this many, before their one transaction.
FLUSH_DELAY_SEC = 0.05
FLUSH_BATCH = 32
_ITEM_CACHE = 1024  # items kept by id for recall (each a few KB)
_log = get_logger("jarvis.memory")


class SqliteItemStore(ItemStore):
    def __init__(self, path: Path, episode_limit: int = EPISODE_LIMIT) -> None:
        self.path = path
        self.episode_limit = episode_limit
        self._db: sqlite3.Connection | None = None
        self._index = WordIndex()
        self._index_version: int | None = None
        # Set while one recall reads (`listed_and_found`): the file's version is asked once.
        self._checked = False
        # of_kinds answers (the listed sections, read every turn), kept until a write changes them.
        self._listed: dict[
            tuple[str, str, tuple[ItemKind, ...]], dict[ItemKind, list[MemoryItem]]
        ] = {}
        self._pending: dict[str, MemoryItem] = {}  # episodes not written yet, oldest first
        self._flush_timer: asyncio.TimerHandle | None = None
        self._items: OrderedDict[str, MemoryItem] = OrderedDict()  # by id, least recent first

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
        await self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None

    async def flush(self) -> None:
        self._flush()

    async def add(self, item: MemoryItem) -> None:
        if item.id in self._pending:
            return
        if item.kind != "episode":
            self._flush()  # the file keeps the order items were added in
            with self._transaction():
                self.db.execute(_INSERT, _row(item))
        self._index.add(item.id, item.agent_id, item.user_id, item.kind, item.text)
        self._forget_listed(item.agent_id, item.user_id, item.kind)
        if item.kind == "episode":
            self._pending[item.id] = item
            if len(self._pending) >= FLUSH_BATCH:
                self._flush()
            elif self._flush_timer is None:
                loop = asyncio.get_running_loop()
                self._flush_timer = loop.call_later(FLUSH_DELAY_SEC, self._flush)

    def _flush(self) -> None:
        """Write the pending episodes in one transaction, each (agent, user) capped once."""
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        if not self._pending:
            return
        batch, self._pending = list(self._pending.values()), {}
        try:
            with self._transaction():
                self.db.executemany(_INSERT, [_row(item) for item in batch])
                for agent_id, user_id in dict.fromkeys((i.agent_id, i.user_id) for i in batch):
                    self._cap_episodes(agent_id, user_id)
        except sqlite3.Error as exc:  # a lost episode costs only learning; the turn is stored
            _log.error("%d episode(s) not stored in %s: %s", len(batch), self.path, exc)
            for item in batch:
                self._index.remove(item.id)
            return
        for item in batch:
            self._remember(item)

    def _cap_episodes(self, agent_id: str, user_id: str) -> None:
        """Drop the episodes past the newest `episode_limit`, in one statement."""
        old = self.db.execute(
            "DELETE FROM items WHERE agent_id = ? AND user_id = ? AND kind = 'episode' "
            "AND seq <= (SELECT seq FROM items WHERE agent_id = ? AND user_id = ? "
            "AND kind = 'episode' ORDER BY seq DESC LIMIT 1 OFFSET ?) RETURNING id",
            (agent_id, user_id, agent_id, user_id, self.episode_limit),
        ).fetchall()
        for (item_id,) in old:
            self._index.remove(item_id)
            self._items.pop(item_id, None)

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
        cached listings and items are dropped then too; pending episodes stay indexed)."""
        if self._checked:  # asked already for this recall (`listed_and_found`)
            return self._index
        version = self.db.execute("PRAGMA data_version").fetchone()[0]
        if version != self._index_version:
            self._listed.clear()
            self._items.clear()
            self._index.clear()
            for row in self.db.execute(
                "SELECT id, agent_id, user_id, kind, text FROM items ORDER BY seq"
            ):
                self._index.add(*row)
            for item in self._pending.values():
                self._index.add(item.id, item.agent_id, item.user_id, item.kind, item.text)
            self._index_version = version
        return self._index

    def _flush_for(self, kinds: Iterable[str]) -> None:
        """Write pending episodes before a read of the file that may return episodes."""
        if self._pending and "episode" in kinds:
            self._flush()

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        self._flush_for((kind,))
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
            self._flush_for(kinds)
            marks = ",".join("?" * len(kinds))
            items = self._select(
                f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? "
                f"AND kind IN ({marks}) ORDER BY seq",
                (agent_id, user_id, *kinds),
            )
            cached = {kind: [item for item in items if item.kind == kind] for kind in kinds}
            self._listed[key] = cached
        return {kind: list(found) for kind, found in cached.items()}

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """One look at the file's version for a recall's reads (none of them yields to the
        event loop, so nothing of this process writes in between)."""
        self._fresh_index()
        self._checked = True
        try:
            yield
        finally:
            self._checked = False

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
        on the episode's outcome and the person's words (`recall_rules`). Pending and recently
        read items come from memory; the rest in one query."""
        known = self._items
        missing = [i for i, _ in ranked if i not in known and i not in self._pending]
        if missing:
            rows = self._select(
                f"SELECT {_FIELDS} FROM items WHERE id IN ({','.join('?' * len(missing))})",
                tuple(missing),
            )
            for row in rows:
                self._remember(row)
        found: list[MemoryItem] = []
        for item_id, score in ranked:
            item = self._pending.get(item_id) or known.get(item_id)
            if item is not None:
                found.append(scored(item, score))
        return found

    def _remember(self, item: MemoryItem) -> None:
        self._items[item.id] = item
        if len(self._items) > _ITEM_CACHE:
            self._items.popitem(last=False)

    def _substring_search(
        self, agent_id: str, user_id: str, words: list[str], kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        self._flush_for(kinds)
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
        self._flush_for(kinds)
        return self._select(
            f"SELECT {_FIELDS} FROM items WHERE agent_id = ? AND user_id = ? "
            f"AND kind IN ({','.join('?' * len(kinds))}) ORDER BY seq DESC LIMIT ?",
            (agent_id, user_id, *kinds, limit),
        )

    async def delete(self, agent_id: str, user_id: str, item_id: str) -> bool:
        self._flush()
        self._items.pop(item_id, None)
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
        self._flush()
        self._items.pop(item_id, None)
        with self.db:
            self.db.execute(
                "UPDATE items SET episode = ? WHERE id = ? AND agent_id = ? AND user_id = ?",
                (episode.model_dump_json(), item_id, agent_id, user_id),
            )
        self._forget_listed(agent_id, user_id, "episode")

    async def set_embedding(self, item_id: str, embedding: list[float] | None) -> None:
        value = None if embedding is None else json.dumps(embedding)
        self._flush()
        self._items.pop(item_id, None)
        with self.db:
            self.db.execute("UPDATE items SET embedding = ? WHERE id = ?", (value, item_id))
        self._listed.clear()

    def _select(self, query: str, params: tuple[Any, ...]) -> list[MemoryItem]:
        return [_item(dict(row)) for row in self.db.execute(query, params)]


def _row(item: MemoryItem) -> tuple[Any, ...]:
    episode = None if item.episode is None else item.episode.model_dump_json()
    embedding = None if item.embedding is None else json.dumps(item.embedding)
    return (item.id, item.kind, item.agent_id, item.user_id, item.text, item.session_id,
            item.turn, item.ts_ms, episode, embedding)  # fmt: skip


def _item(row: dict[str, Any]) -> MemoryItem:
    episode = row.pop("episode")
    embedding = row.pop("embedding")
    return MemoryItem(
        **row,
        episode=None if episode is None else Episode.model_validate_json(episode),
        embedding=None if embedding is None else json.loads(embedding),
    )
