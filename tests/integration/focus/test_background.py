"""A Focus task's work stays out of the person's own views (docs/focus.md): its planning call
and steps are turns of background sessions — kept, and opened by the id `state.json` names,
but not listed among the person's conversations (HUD list, search, `/sessions`), and not
remembered as the person's episodes (memory card, recall into new sessions). Real server,
scripted model, the ticker driven by hand."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from jarvis.core.focus.store import FocusStore
from tests.integration.unattended.helpers import MANUAL, tick_all, unattended_of
from tests.support.live_server import Tab, live_server

PLAN = json.dumps(["scope the question", "compare the engines"])
STEP_1 = "- DBOS keeps workflows in Postgres https://docs.dbos.dev/"
STEP_2 = "- Temporal replays event histories https://docs.temporal.io/"


async def test_focus_steps_are_neither_listed_nor_remembered_as_the_persons(
    tmp_path: Path,
) -> None:
    script = ["반가워요, 무엇을 도와드릴까요?", PLAN, STEP_1, STEP_2]
    with live_server(tmp_path, script, scheduler=MANUAL) as server:
        tab = await Tab.open(server.ws_url(), server.headers)
        mine = (await tab.next("session"))["session"]["id"]
        await tab.send(type="prompt", text="안녕, 오늘 내구성 워크플로 얘기 좀 하자")
        await tab.next("agent_end")

        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            started = await http.post("/api/focus", json={"objective": "compare DBOS and Temporal"})
            task_id = started.json()["id"]
            now = unattended_of(server).app.clock.now_ms()
            for run in ("plan", "1", "2"):
                assert await tick_all(server, now) == [f"focus:{task_id}:{run}"]
            task = FocusStore(tmp_path).load(task_id)
            assert task is not None and task.status == "done"

            listed = (await http.get("/api/sessions")).json()
            assert [s["id"] for s in listed] == [mine]
            found = (await http.get("/api/sessions/search", params={"q": "focus-step"})).json()
            assert found == []
            memory = (await http.get("/api/memory", params={"session": mine})).json()["items"]
            texts = "\n".join(item["text"] for item in memory)
            assert "내구성 워크플로" in texts  # the person's own turn is remembered
            assert "focus-step" not in texts and "DBOS" not in texts, texts
            # kept all the same: a step's session opens by the id its state names
            step = task.steps[0].session_id
            history = (await http.get(f"/api/sessions/{step}/history")).json()
            assert STEP_1 in json.dumps(history, ensure_ascii=False)
        await tab.close()
