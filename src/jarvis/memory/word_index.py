"""The in-process word index every embedded store ranks recall with.

Posting lists keep only the newest ids per word, so recall cost stays flat as memory grows (an
old item is still found through its rarer words). Korean words are also indexed by their
leading parts: particles attach to words, so "배포" must find "배포는".
"""

from __future__ import annotations

import contextlib
import heapq
import re
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from itertools import chain

_WORD = re.compile(r"[\w가-힣]{2,}", re.UNICODE)
_HANGUL = re.compile(r"[가-힣]")
# ponytail: the newest 64 ids per word; see the module docstring.
POSTING_LIMIT = 64
_PREFIX_CHARS = 8


def tokens(text: str) -> set[str]:
    return {match.group(0).lower() for match in _WORD.finditer(text)}


def index_keys(text: str) -> set[str]:
    """Words, and the leading parts (2+ chars) of Korean words."""
    keys: set[str] = set()
    for word in tokens(text):
        keys.add(word)
        if _HANGUL.search(word):
            keys.update(word[:end] for end in range(2, min(len(word), _PREFIX_CHARS + 1)))
    return keys


@dataclass(frozen=True)
class _Entry:
    agent_id: str
    user_id: str
    kind: str
    keys: frozenset[str]
    order: int


class WordIndex:
    def __init__(self) -> None:
        self._postings: dict[tuple[str, str, str], deque[str]] = defaultdict(
            lambda: deque(maxlen=POSTING_LIMIT)
        )
        self._entries: dict[str, _Entry] = {}
        self._added = 0

    def __contains__(self, item_id: str) -> bool:
        return item_id in self._entries

    def add(self, item_id: str, agent_id: str, user_id: str, kind: str, text: str) -> None:
        if item_id in self._entries:
            return
        keys = frozenset(index_keys(text))
        self._entries[item_id] = _Entry(agent_id, user_id, kind, keys, self._added)
        self._added += 1
        for key in keys:
            self._postings[(agent_id, user_id, key)].append(item_id)

    def remove(self, item_id: str) -> None:
        """Drop an id and its postings (an empty posting list goes too, so the index shrinks
        with the items)."""
        entry = self._entries.pop(item_id, None)
        if entry is None:
            return
        for key in entry.keys:
            posting_key = (entry.agent_id, entry.user_id, key)
            posting = self._postings.get(posting_key)
            if posting is None:
                continue
            with contextlib.suppress(ValueError):
                posting.remove(item_id)
            if not posting:
                del self._postings[posting_key]

    def clear(self) -> None:
        self._postings.clear()
        self._entries.clear()

    def size(self) -> int:
        return sum(len(posting) for posting in self._postings.values())

    def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[str], limit: int
    ) -> list[tuple[str, int]]:
        """(id, shared words) of the best matches: most shared words, then newest. Counted in
        C (`Counter` over the posting lists, tuples compared by `nlargest`): at most 64 ids a
        word, so the cost stops growing once the words are common."""
        postings = self._postings
        hits = [p for word in tokens(query) if (p := postings.get((agent_id, user_id, word)))]
        if not hits:
            return []
        entries = self._entries
        scored = [
            (score, entries[i].order, i)
            for i, score in Counter(chain.from_iterable(hits)).items()
            if entries[i].kind in kinds
        ]
        return [(i, score) for score, _, i in heapq.nlargest(limit, scored)]
