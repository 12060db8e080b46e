"""The AGENDA end to end with the real model: a person states a promise in a real session
(the HUD's WebSocket, a real Jarvis server), SmolLM2 on llama.cpp is the AGENDA judge, the real
service writes the real `openloops.jsonl`.

SmolLM2-135M is tiny: it may or may not pull the promise out. Either way nothing is invented:
every stored item quotes the person's words as evidence and is more than one word. What the
judge answered and what was stored is written to `test-output/real_model/agenda.json` (and
`experiments/results/agenda_real_model.md` records a run).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from jarvis.model_layer.lanes import ModelLane
from tests.integration.real_model.conftest import RealModel, served_by
from tests.support.live_server import LiveServer, Tab, quiet_settings, serving

PROMISE = "I'll send the report to Mina by Friday 10am."
WAIT_SEC = 300.0  # a hang guard for a CPU-only model on a shared machine, not a measurement
OUTPUT = Path(__file__).resolve().parents[3] / "test-output" / "real_model" / "agenda.json"
pytestmark = pytest.mark.timeout(900)


@pytest.fixture
def jarvis(real_model: RealModel, tmp_path: Path) -> Iterator[LiveServer]:
    model = served_by(real_model, max_tokens=24)
    config = quiet_settings(
        tmp_path, model, language="en", timezone="UTC", openloop={"model": model},
        memory={"enabled": False},
    )  # fmt: skip
    with serving(config) as server:
        yield server


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def quoted(evidence: str, said: str) -> bool:
    """The evidence is the person's words: its words appear in order in what was said."""
    return " ".join(words(evidence)) in " ".join(words(said))


async def test_a_stated_promise_with_the_real_model_is_kept_or_honestly_missed(
    jarvis: LiveServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="jarvis.openloop")
    lane: ModelLane = jarvis.assembly.lane_for(jarvis.assembly.settings.model)
    tab = await Tab.open(jarvis.ws_url())
    await tab.next("session")
    await tab.send(type="prompt", text=PROMISE)
    end = await tab.next(("agent_end", "agent_error"), timeout=WAIT_SEC)
    assert end["type"] == "agent_end", end

    # The judge runs after the reply (a local server); wait until it ran to its end.
    async with asyncio.timeout(WAIT_SEC):
        while not (lane.finished >= 1 and lane.background == 0):
            await asyncio.sleep(0.1)
    answered = [
        r.getMessage() for r in caplog.records if r.getMessage().startswith("AGENDA judge answered")
    ]
    decisions = [
        r.getMessage()
        for r in caplog.records
        if r.name == "jarvis.openloop" and r.getMessage().startswith("AGENDA ")
    ]
    store = tmp_path / "openloops.jsonl"
    rows = [json.loads(line) for line in store.read_text().splitlines()] if store.exists() else []
    async with httpx.AsyncClient(base_url=jarvis.url, headers=jarvis.headers) as http:
        view = (await http.get("/api/agenda")).json()
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    record = {"said": PROMISE, "judge": answered, "log": decisions, "stored": rows, "view": view}
    OUTPUT.write_text(json.dumps(record, indent=2, ensure_ascii=False), encoding="utf-8")

    assert len(answered) == 1, decisions  # the judge's call got through and was read
    for row in rows:  # nothing invented: quoted evidence and a verb phrase, never one word
        assert row["evidence"].strip(), row
        assert quoted(row["evidence"], PROMISE), row
        assert len(words(row["description"])) >= 2, row
    assert [item["id"] for item in view["open"]] == [row["id"] for row in rows]
    await tab.close()
