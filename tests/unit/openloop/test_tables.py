"""The reviewed tables are read as written: every action word lands in its class, every undoing
word is read as one, every idiom rewrites, every honorific or colloquial word maps."""

from __future__ import annotations

import pytest

from jarvis.agent_layer.openloop import tables as T
from jarvis.agent_layer.openloop.normalise import has_hangul, read_words

ACTION_ROWS = [
    (name, word) for name, words in T.ACTIONS.items() for word in words if " " not in word
]


@pytest.mark.parametrize(("name", "word"), ACTION_ROWS)
def test_every_action_word_is_read_in_its_class(name: str, word: str) -> None:
    text = f"{word}기" if has_hangul(word) else word  # a Korean predicate, an English imperative
    words = read_words(text)
    assert words.predicate is not None
    assert name in words.actions[words.predicate], (text, words)


@pytest.mark.parametrize(
    ("name", "phrase"),
    [(n, w) for n, ws in T.ACTIONS.items() for w in ws if " " in w and not has_hangul(w)],
)
def test_every_english_phrase_is_read_in_its_class(name: str, phrase: str) -> None:
    words = read_words(f"{phrase} the thing")
    assert words.predicate is not None and name in words.actions[words.predicate]


@pytest.mark.parametrize("word", [w for w in T.UNDO_WORDS if " " not in w])
def test_every_undoing_word_is_read_as_one(word: str) -> None:
    text = f"예약 {word}" if has_hangul(word) else f"{word} the booking"
    assert read_words(text).undo, text


@pytest.mark.parametrize(("phrase", "plain"), T.EN_IDIOMS)
def test_every_idiom_rewrites(phrase: str, plain: str) -> None:
    said = read_words(phrase.replace("{x}", "ann"))
    meant = read_words(plain.replace("{x}", "ann"))
    assert (said.actions, said.content, said.undo) == (meant.actions, meant.content, meant.undo)


@pytest.mark.parametrize(("word", "same"), [(w, s) for w, s in T.SAME_WORDS.items() if w != s])
def test_every_same_word_maps(word: str, same: str) -> None:
    sentence = "{} 확인하기" if has_hangul(word) else "check the {}"
    said, meant = read_words(sentence.format(word)), read_words(sentence.format(same))
    assert (said.content, said.persons) == (meant.content, meant.persons)


def test_tables_do_not_contradict_each_other() -> None:
    actions = {w for words in T.ACTIONS.values() for w in words}
    assert not actions & set(T.UNDO_WORDS)
    assert not actions & T.LIGHT_WORDS - {"get", "do", "have", "make sure", "try"}
    assert list(T.KO_PARTICLES) == sorted(T.KO_PARTICLES, key=len, reverse=True)
    assert list(T.KO_ENDINGS) == sorted(T.KO_ENDINGS, key=len, reverse=True)
