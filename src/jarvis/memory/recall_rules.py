"""Which long-term items may come back into a conversation, and why (pure judgements).

Turn episodes exist for procedure learning (seed 000): every turn leaves one, denied, stopped or
wrong. Recalled into a new conversation they were noise — a model's wrong answer came back as if
it were memory. So an episode is recalled only when

- its turn **succeeded** (`outcome == "success"`: not denied, stopped, failed or marked wrong),
- it is **relevant**: a content word of the query occurs in the *person's* words of that turn
  (words only the model's answer shares do not count), or its meaning is close (cosine at the
  embedder's threshold);

- it did not state a semantic fact the person has **corrected** since (`superseded`),

and a turn that used no tools comes back as the person's words only — what the model answered
without doing anything is not evidence. Other items (semantic) need a shared content word or a
close meaning. Every recalled item carries its reason, shown to the person.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from jarvis.memory.store import MemoryItem
from jarvis.memory.word_index import tokens
from jarvis.model_layer.embeddings import cosine

# Words that say nothing about a topic ("what about the zebra" shares only "zebra").
STOPWORDS = frozenset(
    {
        "the", "is", "are", "was", "were", "be", "am", "to", "of", "in", "on", "at", "for",
        "and", "or", "but", "it", "its", "this", "that", "these", "those", "what", "who",
        "how", "why", "when", "where", "which", "do", "does", "did", "can", "could", "will",
        "would", "should", "you", "your", "me", "my", "we", "our", "he", "she", "they", "them",
        "with", "about", "from", "as", "by", "an", "so", "if", "not", "no", "yes", "please",
        "hi", "hello", "hey", "ok", "okay", "thanks", "there", "here", "just", "all", "any",
        "뭐야", "뭐", "무엇", "어떻게", "왜", "언제", "어디", "알려줘", "알려", "해줘", "해",
        "좀", "이거", "그거", "저거", "있어", "없어", "있나", "안녕", "안녕하세요", "그리고",
    }
)  # fmt: skip


@dataclass(frozen=True)
class RecallReason:
    """Why an item was recalled: the query's content words it shares, or its closeness."""

    words: tuple[str, ...] = ()
    similarity: float | None = None


_WORDS = re.compile(r"[\w가-힣]+")


def normalized(text: str) -> str:
    """Words only, case-folded: "I live in Busan." and "i live in busan" are the same words."""
    return " ".join(_WORDS.findall(unicodedata.normalize("NFC", text).casefold()))


def content_words(text: str) -> set[str]:
    return {word for word in tokens(text) if word not in STOPWORDS}


def matched_words(words: set[str], text: str) -> tuple[str, ...]:
    """The query words that occur in `text` (as substrings: Korean particles attach)."""
    lowered = text.lower()
    return tuple(sorted(word for word in words if word in lowered))


def person_words(item: MemoryItem) -> str:
    """What the person said, for an episode; the whole text for any other item."""
    return item.episode.utterance if item.episode is not None else item.text


def recall_reason(
    item: MemoryItem,
    words: set[str],
    query_vector: list[float] | None,
    floor: float,
) -> RecallReason | None:
    """Why `item` may be recalled for a query with these content `words`; None: it may not."""
    if item.episode is not None and (
        item.episode.outcome != "success" or item.episode.metadata.get("superseded")
    ):
        return None  # a failed turn, or one that stated a fact the person corrected since
    shared = matched_words(words, person_words(item))
    similarity = None
    if (
        query_vector is not None
        and item.embedding is not None
        and len(item.embedding) == len(query_vector)
    ):
        similarity = cosine(query_vector, item.embedding)
    close = similarity is not None and similarity >= floor
    if not shared and not close:
        return None
    return RecallReason(words=shared, similarity=similarity if close else None)


def recalled_text(item: MemoryItem) -> str:
    """The line recalled: a turn without tools as the person's words only."""
    episode = item.episode
    if episode is not None and not episode.tool_calls:
        return episode.utterance
    return item.text
