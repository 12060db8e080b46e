"""The feedback learner through the real server (HTTP + WebSocket, scripted model): a reply and
an ignored card are counted, "stop telling me about X" said in chat mutes the topic with one
line back (and a later candidate on it is vetoed), a question about it does not; the learner's
view and its resets over HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from tests.integration.thinking.test_speaking_first import HIGH, add_loop
from tests.integration.unattended.helpers import (
    MANUAL,
    on_server,
    unattended_of,
    write_schedule,
)
from tests.support.live_server import LiveServer, Tab, live_server

MIN = 60_000


def card(topic: str, text: str) -> str:
    item = {"kind": "reminder", "utterance": text, "topic": topic, "ratings": HIGH}
    return json.dumps([item], ensure_ascii=False)


# Never quiet, never idle-triggered: only the due loops the test adds make passes.
PROACTIVE = {"enabled": True, "quiet_start": 0, "quiet_end": 0, "idle_sec": 10**7}
SCRIPT = [
    card("보고서", "분기 보고서 초안, 같이 볼까요?"),  # tick 1
    "네.",  # the question about it (a reply)
    card("날씨", "내일 비 소식이 있어요. 우산 챙기세요."),  # tick 2
    "알겠어요.",  # "stop telling me about the weather"
    card("날씨", "주말 날씨도 흐려요."),  # tick 4: muted
]


async def turn(tab: Tab, text: str) -> list[dict[str, Any]]:
    """Send one message; every event up to its end."""
    await tab.send(type="prompt", text=text)
    return await tab.drain_until("agent_end")


async def learner(http: httpx.AsyncClient) -> dict[str, Any]:
    response = await http.get("/api/proactive/learner")
    assert response.status_code == 200
    (main,) = response.json()["agents"]
    return dict(main)


def counts(view: dict[str, Any], kind: str = "reminder") -> dict[str, int]:
    return dict(next(k for k in view["kinds"] if k["kind"] == kind)["counts"])


async def tick(server: LiveServer, now: int) -> list[Any]:
    speaker = unattended_of(server).speaker
    return list(await on_server(server, speaker.tick(now)))


def with_agenda(home: Path) -> dict[str, Any]:
    """Speaking first on, the AGENDA on with a judge that proposes nothing."""
    judge = home / "judge.yaml"
    judge.write_text("[]\n", encoding="utf-8")
    model = {"provider": "faux", "model": "judge", "script": str(judge)}
    return {"thinking": {"proactive": PROACTIVE}, "openloop": {"enabled": True, "model": model}}


async def test_replies_ignores_and_stop_in_words_through_the_server(tmp_path: Path) -> None:
    settings = with_agenda(tmp_path)
    with live_server(tmp_path, SCRIPT, scheduler=MANUAL, **settings) as server:
        app = unattended_of(server).app
        tab = await Tab.open(f"{server.ws_url()}?lang=ko")
        await tab.next("session")
        http = httpx.AsyncClient(base_url=server.url, headers=server.headers)
        now = app.clock.now_ms()

        # 1. A card, then the person writes within the window: a reply. A question about
        # stopping is not a stop: no line, nothing muted.
        await on_server(server, add_loop(app, "L1", "분기 보고서 초안 보내기", now + 30 * MIN))
        [spoke] = await tick(server, now)
        assert spoke.reason == "spoke"
        events = await turn(tab, "보고서 얘기 그만할까?")
        assert not [e for e in events if e.get("message_id", "").startswith("learner:")]
        view = await learner(http)
        assert counts(view)["reply"] == 1 and view["muted"] == []

        # 2. The next card gets no answer: when its window closes it counts as ignored.
        await on_server(server, add_loop(app, "L2", "날씨 확인", now + 90 * MIN))
        [spoke] = await tick(server, now + 61 * MIN)
        assert spoke.reason == "spoke"
        assert counts(await learner(http))["ignored"] == 0  # still open
        await tick(server, now + 92 * MIN)  # same situation: no call, only the counting
        assert counts(await learner(http))["ignored"] == 1

        # 3. "Stop telling me about the weather" in words: one line back, the topic muted, the
        # card's ignore replaced by the stop; a later candidate on it is vetoed.
        events = await turn(tab, "날씨 얘기는 이제 그만해")
        (line,) = [e for e in events if e.get("message_id", "").startswith("learner:")]
        assert line["type"] == "proactive_message" and line["kind"] == "answer"
        assert line["text"].startswith("알겠어요 — 날씨 얘기는") and "/learner" in line["text"]
        view = await learner(http)
        assert [m["topic"] for m in view["muted"]] == ["날씨"]
        assert counts(view) == {
            "thumbs_up": 0,
            "thumbs_down": 0,
            "do_it": 0,
            "reply": 1,
            "ignored": 0,
            "stop_topic": 1,
        }
        await on_server(server, add_loop(app, "L3", "주말 날씨", now + 200 * MIN))
        [vetoed] = await tick(server, now + 180 * MIN)
        assert [v.reason for v in vetoed.verdicts] == ["muted_topic"]

        # 4. Resets over HTTP: one topic, an unknown kind (404), one kind, an unknown agent.
        post = "/api/proactive/learner/reset"
        ok = await http.post(post, json={"agent_id": "main", "topic": "날씨"})
        assert ok.status_code == 200 and (await learner(http))["muted"] == []
        missing = await http.post(post, json={"agent_id": "main", "kind": "news"})
        assert missing.status_code == 404
        ok = await http.post(post, json={"agent_id": "main", "kind": "reminder"})
        assert ok.status_code == 200 and not any(counts(await learner(http)).values())
        nobody = await http.post(post, json={"agent_id": "nobody"})
        assert nobody.status_code == 404
        saved = json.loads((tmp_path / "proactive" / "main.json").read_text(encoding="utf-8"))
        assert saved["learner"]["kinds"] == {} and saved["learner"]["muted_until_ms"] == {}
        await http.aclose()
        await tab.close()


async def test_stop_about_something_never_said_is_honest(tmp_path: Path) -> None:
    """Nothing said about it first: the words themselves are muted, and the line says so; with
    speaking first off nothing is written and nothing is said."""
    settings = {"thinking": {"proactive": PROACTIVE}}
    with live_server(tmp_path, ["네."], scheduler=MANUAL, **settings) as server:
        tab = await Tab.open(f"{server.ws_url()}?lang=en")
        await tab.next("session")
        events = await turn(tab, "stop telling me about the stock market")
        (line,) = [e for e in events if e.get("message_id", "").startswith("learner:")]
        assert line["text"].startswith("I haven't brought up “stock market” first yet")
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            (main,) = (await http.get("/api/proactive/learner")).json()["agents"]
        assert [m["topic"] for m in main["muted"]] == ["stock market"]
        await tab.close()
    off = tmp_path / "off"
    off.mkdir()
    with live_server(off, ["네."]) as server:
        tab = await Tab.open(f"{server.ws_url()}?lang=en")
        await tab.next("session")
        events = await turn(tab, "stop telling me about the stock market")
        assert not [e for e in events if e.get("message_id", "").startswith("learner:")]
        assert not (off / "proactive").exists()
        await tab.close()


async def test_a_run_nobody_typed_is_neither_a_reply_nor_a_stop(tmp_path: Path) -> None:
    """A schedule's prompt right after a card is not the person: no reply, no mute."""
    write_schedule(tmp_path, "nightly", prompt="stop telling me about the weather")
    script = [card("날씨", "내일 비 소식이 있어요."), "네."]
    with live_server(tmp_path, script, scheduler=MANUAL, **with_agenda(tmp_path)) as server:
        service = unattended_of(server)
        now = service.app.clock.now_ms()
        await on_server(server, add_loop(service.app, "L1", "날씨 확인", now + 30 * MIN))
        [spoke] = await tick(server, now)
        assert spoke.reason == "spoke"
        run_id = await on_server(server, service.run_now("nightly", "local"))
        result = await on_server(server, service.engine.wait(run_id))
        assert result["status"] == "ok", result
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            view = await learner(http)
        assert view["muted"] == [] and not any(counts(view).values())
