"""MemoryService: the one place memory is injected before an LLM call, and episodes recorded."""

from __future__ import annotations

from dataclasses import dataclass, field

from jarvis.common.clock import new_id
from jarvis.common.i18n import Language, t
from jarvis.memory.config import MemorySettings
from jarvis.memory.episodes import Episode
from jarvis.memory.recall import EpisodeFilter, filter_episodes, rank_recalled
from jarvis.memory.recall_rules import (
    RecallReason,
    content_words,
    normalized,
    recall_reason,
    recalled_text,
)
from jarvis.memory.store import ALL_KINDS, InMemoryItemStore, ItemKind, ItemStore, MemoryItem
from jarvis.memory.working import InMemoryWorkingStore, WorkingStore
from jarvis.model_layer.embeddings import Embedder, cosine

# Section order is the seed's: facts, long-term, procedures, task patterns, shared work memory.
# Titles are catalog keys (`memory.section.*`): an English UI gets English headers.
_SECTIONS: tuple[tuple[str, tuple[ItemKind, ...]], ...] = (
    ("memory.section.facts", ("fact",)),
    ("memory.section.long_term", ("semantic", "episode")),
    ("memory.section.procedures", ("procedure",)),
    ("memory.section.task_patterns", ("task_pattern",)),
    ("memory.section.shared", ("shared",)),
)
# Put between recalled memory and the person's words in the turn's message.
PERSON_WORDS_HEADER = "[사용자 입력]"
_RECALLED: set[ItemKind] = {"semantic", "episode"}
_LISTED: tuple[ItemKind, ...] = ("fact", "procedure", "task_pattern", "shared")
# With an embedder, the newest embedded items join the lexical matches as candidates, so a
# restatement without a shared word can still be recalled.
_SEMANTIC_CANDIDATES = 64
_SEMANTIC_FLOOR = 0.85


@dataclass
class Recall:
    """What memory brings into one turn: the block, and each recalled item with its reason."""

    block: str = ""
    recalled: list[tuple[MemoryItem, str]] = field(default_factory=list)


@dataclass
class MemoryScope:
    agent_id: str
    user_id: str
    session_id: str
    turn: int


class MemoryService:
    def __init__(
        self,
        settings: MemorySettings,
        store: ItemStore | None = None,
        working: WorkingStore | None = None,
        embedder: Embedder | None = None,
        *,
        language: Language = "ko",
    ) -> None:
        self.settings = settings
        self.language = language
        self.store = store or InMemoryItemStore()
        self.working = working or InMemoryWorkingStore()
        self.embedder = embedder or Embedder()

    @property
    def embeds(self) -> bool:
        return self.embedder.name != "none"

    async def observe(self, scope: MemoryScope, query: str) -> str:
        """The memory block placed in front of the recent turns ('' when there is nothing)."""
        return (await self.recall(scope, query)).block

    async def recall(self, scope: MemoryScope, query: str, lang: Language | None = None) -> Recall:
        """The memory block, and which long-term items came back and why (`recall_rules`), in
        `lang` (the session's; the service's own by default)."""
        lang = lang or self.language
        if not self.settings.enabled:
            return Recall()
        limit = self.settings.recall_limit
        found, candidates = await self.store.listed_and_found(
            scope.agent_id, scope.user_id, _LISTED, query, _RECALLED, limit + 3
        )
        query_vector = await self._embed_one(query) if self.embeds else None
        if query_vector is not None:
            candidates += await self._embedded_candidates(scope, candidates, query_vector)
        working = await self.working.load(scope.agent_id, scope.session_id)
        words = content_words(query)
        floor = self.embedder.loop_threshold or _SEMANTIC_FLOOR
        reasons: dict[str, RecallReason] = {}
        for item in candidates:
            if not self._in_window(item, scope):
                reason = recall_reason(item, words, query_vector, floor)
                if reason is not None:
                    reasons[item.id] = reason
        eligible = _stated_once([item for item in candidates if item.id in reasons])
        recalled = rank_recalled(eligible, query, working, query_vector)[:limit]
        if (cut := self.settings.cut_carries(scope.turn)) > 0:
            # The cut's carried lines are the newest earlier turns, one line each: they take
            # the episodes' slots, so what a cut adds after the cached prefix stays short.
            episodes = [item for item in recalled if item.kind == "episode"][
                : min(limit, max(1, limit - cut))
            ]
            recalled = [item for item in recalled if item.kind != "episode" or item in episodes]
        if recalled:
            rehearsed = working.rehearsed([item.id for item in recalled])
            await self.working.save(scope.agent_id, scope.session_id, rehearsed)
        found["episode"] = recalled
        why = [(item, explain(item, reasons[item.id], lang)) for item in recalled]
        return Recall(_render(found, working.notes, lang), why)

    async def _embedded_candidates(
        self, scope: MemoryScope, already: list[MemoryItem], query_vector: list[float]
    ) -> list[MemoryItem]:
        """Recent items close to the query without a shared word. Closeness is the embedder's
        calibrated threshold (cosine scales differ per model), else a conservative default."""
        floor = self.embedder.loop_threshold or _SEMANTIC_FLOOR
        seen = {item.id for item in already}
        newest = await self.store.latest(
            scope.agent_id, scope.user_id, tuple(_RECALLED), _SEMANTIC_CANDIDATES
        )
        return [
            item
            for item in newest
            if item.embedding is not None
            and item.id not in seen
            and len(item.embedding) == len(query_vector)
            and cosine(item.embedding, query_vector) >= floor
        ]

    async def note(self, scope: MemoryScope, text: str) -> None:
        """Add to this session's shared work memory (shown every following turn)."""
        working = await self.working.load(scope.agent_id, scope.session_id)
        await self.working.save(scope.agent_id, scope.session_id, working.noted(text))

    def _in_window(self, item: MemoryItem, scope: MemoryScope) -> bool:
        """Episodes and stated facts of turns the model already sees verbatim are not recalled
        twice."""
        return (
            item.kind in _RECALLED
            and item.session_id == scope.session_id
            and item.turn >= self.settings.first_shown_turn(scope.turn)
        )

    async def record_episode(self, episode: Episode) -> None:
        # idempotent: one row per call with no natural key; recording the same turn twice
        # gives two episodes (callers record each turn once, after it ended).
        if not self.settings.enabled:
            return
        text = f"{episode.utterance} → {episode.answer}"
        await self._add(
            MemoryItem(
                id=new_id(),
                kind="episode",
                agent_id=episode.agent_id,
                user_id=episode.user_id,
                text=text,
                session_id=episode.session_id,
                turn=episode.turn,
                ts_ms=episode.ts_ms,
                episode=episode,
            )
        )

    async def remember(
        self, scope: MemoryScope, kind: ItemKind, text: str, ts_ms: int
    ) -> MemoryItem:
        item = MemoryItem(
            id=new_id(),
            kind=kind,
            agent_id=scope.agent_id,
            user_id=scope.user_id,
            text=text,
            session_id=scope.session_id,
            turn=scope.turn,
            ts_ms=ts_ms,
        )
        await self._add(item)
        return item

    async def _add(self, item: MemoryItem) -> None:
        if self.embeds and item.kind in _RECALLED:
            item.embedding = await self._embed_one(item.text)
        await self.store.add(item)

    async def _embed_one(self, text: str) -> list[float] | None:
        vectors = await self.embedder.embed([text])
        return vectors[0] if vectors else None

    async def reembed(self, agent_id: str, user_id: str) -> int:
        """Embed every recalled item again (after the embedder changed); how many were done."""
        if not self.embeds:
            return 0
        items = await self.store.latest(agent_id, user_id, tuple(_RECALLED), 100_000)
        done = 0
        for item in items:
            vector = await self._embed_one(item.text)
            await self.store.set_embedding(item.id, vector)
            done += vector is not None
        return done

    async def episodes(self, agent_id: str, user_id: str) -> list[Episode]:
        items = await self.store.of_kind(agent_id, user_id, "episode")
        return [item.episode for item in items if item.episode is not None]

    async def episode_items(self, agent_id: str, user_id: str) -> list[MemoryItem]:
        """Episode items, oldest first (their ids are what marks are written to)."""
        items = await self.store.of_kind(agent_id, user_id, "episode")
        return [item for item in items if item.episode is not None]

    async def recall_episodes(
        self, agent_id: str, user_id: str, wanted: EpisodeFilter
    ) -> list[Episode]:
        return filter_episodes(await self.episodes(agent_id, user_id), wanted)

    async def supersede_episodes(self, agent_id: str, user_id: str, words: str) -> int:
        """Mark the episodes whose person's words state `words` (`normalized`) as superseded: the
        person corrected that fact, so those turns are no longer recalled. How many."""
        marked = 0
        for item in await self.episode_items(agent_id, user_id):
            episode = item.episode
            if episode is None or episode.metadata.get("superseded"):
                continue
            if words and words in normalized(episode.utterance):
                metadata = {**episode.metadata, "superseded": True}
                await self.update_episode(item, episode.model_copy(update={"metadata": metadata}))
                marked += 1
        return marked

    async def update_episode(self, item: MemoryItem, episode: Episode) -> None:
        await self.store.replace_episode(item.agent_id, item.user_id, item.id, episode)

    async def mark_turn_failed(
        self, agent_id: str, user_id: str, session_id: str, turn: int, reason: str
    ) -> bool:
        """A person said the answer was wrong: that turn's episode becomes a failure (so it is
        reflected on). False when the turn left no episode."""
        for item in reversed(await self.episode_items(agent_id, user_id)):
            episode = item.episode
            if episode is None or (episode.session_id, episode.turn) != (session_id, turn):
                continue
            metadata = {**episode.metadata, "corrected": reason}
            await self.update_episode(
                item, episode.model_copy(update={"outcome": "failure", "metadata": metadata})
            )
            return True
        return False

    async def items(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...] = ALL_KINDS, limit: int = 50
    ) -> list[MemoryItem]:
        """What Jarvis remembers about this person, newest first (for list/show/forget)."""
        return await self.store.latest(agent_id, user_id, kinds, limit)

    async def resolve(self, agent_id: str, user_id: str, prefix: str) -> list[MemoryItem]:
        """Items whose id starts with `prefix` (an 8-char prefix is enough)."""
        items = await self.store.latest(agent_id, user_id, ALL_KINDS, 100_000)
        return [item for item in items if prefix and item.id.startswith(prefix)]

    async def forget(self, agent_id: str, user_id: str, item_id: str) -> bool:
        return await self.store.delete(agent_id, user_id, item_id)


def explain(item: MemoryItem, reason: RecallReason, lang: Language) -> str:
    """Why an item was recalled, in one line of the person's language."""
    parts = []
    if reason.words:
        parts.append(t("memory.recall.words", lang, words=", ".join(reason.words)))
    if reason.similarity is not None:
        parts.append(t("memory.recall.similar", lang, similarity=f"{reason.similarity:.2f}"))
    why = "; ".join(parts)
    if item.episode is None:
        return why
    return t("memory.recall.episode", lang, turn=item.turn, why=why)


def _stated_once(items: list[MemoryItem]) -> list[MemoryItem]:
    """A turn that stated a fact comes back as the semantic item, not also as its episode."""
    stated = {(item.session_id, item.turn) for item in items if item.kind == "semantic"}
    return [
        item
        for item in items
        if item.episode is None
        or item.episode.tool_calls
        or (item.session_id, item.turn) not in stated
    ]


def _render(found: dict[ItemKind, list[MemoryItem]], notes: list[str], lang: Language) -> str:
    blocks: list[str] = []
    for key, kinds in _SECTIONS:
        title = t(key, lang)
        lines = [f"- {recalled_text(item)}" for kind in kinds for item in found.get(kind, [])]
        if "shared" in kinds:
            lines += [f"- {note}" for note in notes]
        if lines:
            blocks.append("\n".join([title, *lines]))
    return "\n\n".join(blocks)
