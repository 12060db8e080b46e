"""The catalog keys of the lines written for the person by the gate, sub-agents, team and
unattended tools, memory tools, the HTTP guards and the model's failures: each exists in both
languages, the English line has no Korean and the Korean line is Korean, so a page in either
language reads its own. The keys are read from the code that writes them (literal keys and the
f-string families), so a new line there is walked too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common import i18n
from jarvis.core.agents.runtime import loop_config

SRC = Path(__file__).resolve().parents[3] / "src" / "jarvis"
PATHS = [
    "core/policy/gate.py",
    "core/agents/tools.py",
    "core/agents/direct.py",
    "app/unattended/tools.py",
    "app/unattended/runtime.py",
    "app/unattended/runs.py",
    "core/memory_tools/__init__.py",
    "ui/web/security.py",
    "model_layer/providers/server_errors.py",
    "agent_layer/loop.py",
]
HANGUL = re.compile(r"[\uac00-\ud7a3]")
KEY = re.compile(r"""\bt\(\s*(f?)["']([a-z_.]+(?:\{[a-z_]+\})?[a-z_.]*)["']""")


def keys_used() -> list[str]:
    keys: set[str] = set()
    for relative in PATHS:
        for is_f, key in KEY.findall((SRC / relative).read_text(encoding="utf-8")):
            if is_f and "{" in key:  # a family: every catalog key with that prefix
                prefix = key.split("{", 1)[0]
                family = [k for k in i18n._CATALOG if k.startswith(prefix)]
                assert family, key
                keys.update(family)
            else:
                keys.add(key)
    return sorted(keys)


def test_the_walk_finds_the_lines_of_each_path() -> None:
    used = keys_used()
    for key in ("gate.approval_denied", "gate.no_approver", "agents.unknown_agent",
                "unattended.goal_created", "memory.pattern_saved", "web.body_too_large",
                "web.origin_refused", "model.timeout", "loop.aborted"):  # fmt: skip
        assert key in used, key
    assert any(key.startswith("gate.shell.danger.") for key in used)
    assert len(used) > 40, used


@pytest.mark.parametrize("key", keys_used())
def test_each_line_reads_in_both_languages(key: str) -> None:
    entry = i18n._CATALOG[key]
    assert entry.get("en") and entry.get("ko"), key
    assert not HANGUL.search(entry["en"]), key
    # Korean, unless the line has no words to translate (`[{name}] {answer}`).
    assert HANGUL.search(entry["ko"]) or entry["ko"] == entry["en"], key


def test_the_context_carries_the_persons_language() -> None:
    import asyncio

    ctx = ToolCallContext(session_id="s", agent_id="main", turn=1, abort=asyncio.Event())
    assert ctx.speaks("ko") == "ko"  # nobody said: the server's
    english = ToolCallContext(
        session_id="s", agent_id="main", turn=1, abort=asyncio.Event(), language="en"
    )
    assert english.speaks("ko") == "en"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_subagents_loop_and_its_model_errors_speak_the_persons_language(lang: str) -> None:
    config = loop_config(3, lang)  # type: ignore[arg-type]
    assert config.language == lang and config.options.language == lang
