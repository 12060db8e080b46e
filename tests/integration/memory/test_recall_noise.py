"""Memory that is not noise, through the real server as the HUD uses it.

Before: the memory card showed `&amp;&amp;` (the pipeline's escaped text was stored and shown),
and every turn — denied, stopped, wrong — was an episode recalled into new sessions, answer
included (a model's wrong answer came back as memory). Now memory keeps the words as typed,
only successful turns that share a content word with the person's words come back, a turn
without tools comes back as the person's words only, and each recall says why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from jarvis.common.i18n import t
from tests.support.live_server import LiveServer, Tab, live_server
from tests.support.processes import bash

TYPED = """my parking spot is B12 && "level" 'two' <b>bold</b>"""


async def turn(tab: Tab, text: str, answer: str = "deny") -> list[dict[str, Any]]:
    await tab.send(type="prompt", text=text)
    seen = []
    while True:
        event = await tab.next(("approval_request", "memory_recalled", "agent_end", "agent_error"))
        seen.append(event)
        if event["type"] == "approval_request":
            await tab.send(type="approval", id=event["id"], answer=answer)
        if event["type"] in ("agent_end", "agent_error"):
            return seen


async def new_tab(server: LiveServer) -> tuple[Tab, str]:
    tab = await Tab.open(f"{server.ws_url()}?lang=en")
    return tab, (await tab.next("session"))["session"]["id"]


async def test_memory_keeps_words_as_typed_and_recalls_only_what_is_worth_it(
    tmp_path: Path,
) -> None:
    script = [
        "Your spot is C3 in Paris",  # a wrong answer, in a turn without tools
        bash("rm -rf parking-archive"),  # the parking archive turn: denied
        "Your parking spot is B12.",
    ]
    with live_server(tmp_path, script, language="en") as server:
        tab, first = await new_tab(server)
        await turn(tab, TYPED)
        denied = await turn(tab, "delete the parking archive")
        assert any(e["type"] == "approval_request" for e in denied)
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            items = (await http.get("/api/memory", params={"session": first})).json()["items"]
        texts = [item["text"] for item in items]
        assert f"{TYPED} → Your spot is C3 in Paris" in texts, texts  # as typed, escaped nowhere
        assert not any("&amp;" in text or "&lt;" in text or "&quot;" in text for text in texts)
        await tab.close()

        fresh, _ = await new_tab(server)
        seen = await turn(fresh, "where is my parking spot?")
        (recalled,) = [e for e in seen if e["type"] == "memory_recalled"]
        assert [item["text"] for item in recalled["items"]] == [
            f"{TYPED} → Your spot is C3 in Paris"
        ]
        why = t("memory.recall.words", "en", words="parking, spot")
        assert recalled["items"][0]["reason"] == t("memory.recall.episode", "en", turn=1, why=why)
        await fresh.close()
        model = next(iter(server.assembly._provider_cache.values()))
        asked = str(model.calls[-1].messages[-1].content)  # type: ignore[attr-defined]
    assert f"- {TYPED}\n" in asked  # the person's words, as typed
    assert "C3" not in asked and "Paris" not in asked  # the model's answer is not evidence
    assert "archive" not in asked  # the denied turn stays out
