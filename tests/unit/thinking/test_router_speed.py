"""The router's cheap feature extraction decides exactly as the plain one did (issue 26).

`data/router_golden.json` holds the routes and features of every labelled prompt (dev + test)
and of 60 long composites (two labelled prompts around a repeated filler, up to 10,000
characters), recorded from the router before its cues were compiled for speed. And every cue's
split, rewritten form answers exactly as one plain `a|b|…` search over its sources.
"""

from __future__ import annotations

import importlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from jarvis.agent_layer.thought import RouteInput, features, load_weights, route
from jarvis.agent_layer.thought.cues import Cue

GOLDEN = json.loads((Path(__file__).parent / "data" / "router_golden.json").read_text("utf-8"))
_features = importlib.import_module("jarvis.agent_layer.thought.features")


def _check(text: str, row: dict[str, Any]) -> None:
    got = route(RouteInput(text), load_weights())
    assert (got.think, got.p_think, got.reason) == (row["think"], row["p_think"], row["reason"])
    assert features(text) == row["features"]


@pytest.mark.parametrize("index", range(len(GOLDEN["labelled"])))
def test_a_labelled_prompt_routes_as_before(index: int) -> None:
    row = GOLDEN["labelled"][index]
    _check(row["text"], row)


def test_the_long_composites_route_as_before() -> None:
    texts = [row["text"] for row in GOLDEN["labelled"]]
    for row in GOLDEN["long"]:
        filler = GOLDEN["fill"][row["fill"]] * row["repeat"]
        text = f"{texts[row['a']]} {filler} {texts[row['b']]}"[:10000]
        _check(text, row)


def _cues() -> list[tuple[str, Any]]:
    named = list(_features._CUES.items())
    named += [(f"tool{i}", cue) for i, cue in enumerate(_features._TOOL_CUES)]
    return [*named, ("think_request", _features._THINK_REQUEST)]


def _texts() -> list[str]:
    """Labelled prompts, their pieces at every word start, and random mixes of cue words."""
    rng = random.Random(26)
    base = [row["text"].lower() for row in GOLDEN["labelled"]]
    words = [w for text in base for w in text.split()]
    out = list(base)
    for text in base:
        out += [text[i:] for i in range(1, len(text)) if text[i - 1] == " "]
    joiners = [" ", "", "\n", "_", "-", "가", "a", "1. ", "\n- "]
    for _ in range(3000):
        out.append(
            "".join(rng.choice(words) + rng.choice(joiners) for _ in range(rng.randint(1, 8)))
        )
    return out


def test_every_cue_answers_as_one_plain_search() -> None:
    texts = _texts()
    for name, cue in _cues():
        plain = re.compile("|".join(f"(?:{p})" for p in cue.patterns))
        for text in texts:
            assert cue.search(text) == (plain.search(text) is not None), (name, text)


def test_a_word_boundary_is_kept_at_the_start_and_after_any_character() -> None:
    cue = Cue(r"\bwhy\b", r"\bplan(ning)?\b")
    assert cue.search("why") and cue.search("so why?") and cue.search("계획.plan")
    assert not cue.search("somewhy") and not cue.search("_why") and not cue.search("가why")
    assert not cue.search("airplan") and cue.search("\nplanning")


# Cues written in a faster form than the router first had: each pair must answer alike.
REWRITTEN = [
    (
        r"\b(that|the) (one|thing|file|issue|error) (from|you|we|i)\b",
        r"\bth(at|e) (one|thing|file|issue|error) (from|you|we|i)\b",
    ),
    (
        r"\b(earlier|previous(ly)?|before|above|last time)\b",
        r"\bearlier\b|\bprevious(ly)?\b|\bbefore\b|\babove\b|\blast time\b",
    ),
    (r"\b\w+error\b", r"error(?<=\werror)\b"),
]


@pytest.mark.parametrize(("before", "after"), REWRITTEN)
def test_a_rewritten_cue_answers_as_its_first_form(before: str, after: str) -> None:
    texts = [*_texts(), "error", "xerror", "errorerror", "가error", "_error:", "the one you", "X"]
    old, new = re.compile(before), Cue(after)
    for text in texts:
        assert new.search(text) == (old.search(text) is not None), text
