"""The memory block's section headers follow the UI language (issue 13 item 7)."""

from __future__ import annotations

import re

from jarvis.memory.config import MemorySettings
from jarvis.memory.service import MemoryScope, MemoryService


async def test_english_headers_have_no_korean() -> None:
    memory = MemoryService(MemorySettings(), language="en")
    scope = MemoryScope("main", "u", "s1", 1)
    await memory.note(scope, "release branch is r-42")
    block = await memory.observe(scope, "hi")
    assert block == "[Shared work memory]\n- release branch is r-42"
    assert not re.search(r"[\uac00-\ud7a3]", block)


async def test_korean_stays_the_default() -> None:
    memory = MemoryService(MemorySettings())
    scope = MemoryScope("main", "u", "s1", 1)
    await memory.note(scope, "r-42")
    assert (await memory.observe(scope, "hi")).startswith("[작업 공유 메모리]")
