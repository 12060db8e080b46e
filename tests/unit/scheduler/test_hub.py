"""Proactive messages on the embedded default: every open window of the person, once; the
person's other windows only; reminders also shown in the terminal."""

from __future__ import annotations

from typing import Any

from jarvis.app.unattended.notify import ProactiveHub


async def test_every_window_of_the_person_and_the_terminal() -> None:
    shown: list[str] = []
    hub = ProactiveHub(terminal=shown.append)
    first: list[dict[str, Any]] = []
    second: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    hub.attach("alice", first.append)
    leave = hub.attach("alice", second.append)
    hub.attach("bob", other.append)
    await hub.publish("alice", "⏰ 지금 기한입니다: 보고서", "proactive", "remind:L:0")
    leave()
    await hub.publish("alice", "[brief] 요약", "answer", "sched:brief:x", status="ok")
    assert [e["message_id"] for e in first] == ["remind:L:0", "sched:brief:x"]
    assert [e["message_id"] for e in second] == ["remind:L:0"]
    assert other == []
    assert first[0] == {
        "type": "proactive_message",
        "text": "⏰ 지금 기한입니다: 보고서",
        "kind": "proactive",
        "message_id": "remind:L:0",
    }
    assert shown == ["⏰ 지금 기한입니다: 보고서"]  # answers go to windows, not the log
