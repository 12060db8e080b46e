"""Approvals answered in words through the real server: a prompt typed while an approval waits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jarvis.common.i18n import t
from tests.support.live_server import LiveServer, Tab, live_server


def bash(command: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


async def waiting(server: LiveServer) -> tuple[Tab, Tab, dict[str, Any]]:
    """Two tabs of one session, a bash approval pending in it."""
    first = await Tab.open(server.ws_url())
    session = (await first.next("session"))["session"]["id"]
    second = await Tab.open(server.ws_url(session))
    await second.next("session")
    await first.send(type="prompt", text="run it")
    request = await first.next("approval_request")
    assert (await second.next("approval_request"))["id"] == request["id"]
    return first, second, request


async def test_a_negation_denies_and_every_tab_sees_what_was_understood(tmp_path: Path) -> None:
    # One scripted answer: if the words reached a model (a turn or the classifier), the
    # missing second response would show up as an error.
    with live_server(tmp_path, [bash("rm -r build")]) as server:
        first, second, request = await waiting(server)
        await second.send(type="prompt", text="잠깐 이건 하지마")
        for tab in (first, second):
            words = await tab.next("approval_words")
            assert words == {
                "type": "approval_words",
                "id": request["id"],
                "text": "잠깐 이건 하지마",
                "decision": "deny",
                "line": "'잠깐 이건 하지마' → 거부",
            }
            assert (await tab.next("approval_resolved"))["status"] == "deny"
        events = await first.drain_until("agent_end")
        assert events[-1]["ended_by"] == "denied"
        text = "".join(e.get("text_delta", "") for e in events if e["type"] == "message_update")
        assert t("approval.denied_turn_end", tools="bash") in text
        assert not [e for e in events if e["type"] == "agent_error"]
        await first.close()
        await second.close()


async def test_a_refusal_fused_to_the_verb_or_a_refusing_sign_denies(tmp_path: Path) -> None:
    # Issue 23: the HUD reads words with the same rules as the terminal; "실행안해" and
    # "yes👎" were read as consent. A classifier that always says allow must not change that.
    script = tmp_path / "words.json"
    script.write_text('["allow", "allow"]', encoding="utf-8")
    classifier = {"provider": "faux", "model": "words", "script": str(script)}
    for n, reply in enumerate(("실행안해", "yes👎")):
        home = tmp_path / f"home{n}"
        home.mkdir()
        with live_server(
            home, [bash("touch refused-in-words")], approvals={"words_model": classifier}
        ) as server:
            first, second, _ = await waiting(server)
            await second.send(type="prompt", text=reply)
            words = await first.next("approval_words")
            assert (words["decision"], words["line"]) == ("deny", f"'{reply}' → 거부")
            assert (await first.next("approval_resolved"))["status"] == "deny"
            assert (await first.drain_until("agent_end"))[-1]["ended_by"] == "denied"
            await first.close()
            await second.close()
        assert not (home / "refused-in-words").exists()


async def test_a_polite_reply_goes_to_the_classifier(tmp_path: Path) -> None:
    # "괜찮아요" is as often "no, thanks" as "go ahead": the classifier reads it, not a keyword.
    script = tmp_path / "words.json"
    script.write_text('["deny"]', encoding="utf-8")
    classifier = {"provider": "faux", "model": "words", "script": str(script)}
    with live_server(
        tmp_path, [bash("touch politely-declined")], approvals={"words_model": classifier}
    ) as server:
        first, second, _ = await waiting(server)
        await first.send(type="prompt", text="괜찮아요")
        assert (await second.next("approval_words"))["decision"] == "deny"
        assert (await first.drain_until("agent_end"))[-1]["ended_by"] == "denied"
        await first.close()
        await second.close()
    assert not (tmp_path / "politely-declined").exists()


async def test_clear_consent_runs_the_tool(tmp_path: Path) -> None:
    with live_server(tmp_path, [bash("echo words-said-yes"), "done"]) as server:
        first, second, _ = await waiting(server)
        await first.send(type="prompt", text="ok go")
        words = await second.next("approval_words")
        assert words["decision"] == "allow" and words["line"] == "'ok go' → 허용"
        end = await first.next("tool_execution_end")
        assert "words-said-yes" in end["result_preview"]
        assert end["decision"]["reason"] == "user_once"
        assert (await first.next("agent_end"))["ended_by"] == "answer"
        await first.close()
        await second.close()


async def test_unclear_stays_pending_until_a_clear_answer(tmp_path: Path) -> None:
    script = tmp_path / "words.json"
    script.write_text('["unclear", "allow"]', encoding="utf-8")
    classifier = {"provider": "faux", "model": "words", "script": str(script)}
    with live_server(
        tmp_path,
        [bash("echo after-words"), "done"],
        approvals={"words_model": classifier},
        language="en",
    ) as server:
        first, second, request = await waiting(server)
        await first.send(type="prompt", text="what does it do?")
        unclear = await first.next("approval_words")
        assert unclear["decision"] == "unclear"
        assert unclear["line"] == "'what does it do?' → not understood, still waiting " + (
            "(e.g. 'go ahead', 'don't')"
        )
        assert (await second.next("approval_words"))["decision"] == "unclear"  # every tab
        # Still pending: the classifier's clear allow on the next reply answers it.
        await second.send(type="prompt", text="ship it")
        allowed = await second.next("approval_words")
        assert allowed["decision"] == "allow" and allowed["id"] == request["id"]
        assert allowed["line"] == "'ship it' → allowed"
        assert "after-words" in (await first.next("tool_execution_end"))["result_preview"]
        await first.close()
        await second.close()


async def test_the_line_is_in_the_tab_s_language(tmp_path: Path) -> None:
    with live_server(tmp_path, [bash("rm -r build")]) as server:  # server default: Korean
        tab = await Tab.open(server.ws_url() + "?lang=en")
        await tab.next("session")
        await tab.send(type="prompt", text="run it")
        await tab.next("approval_request")
        await tab.send(type="prompt", text="no wait")
        assert (await tab.next("approval_words"))["line"] == "'no wait' → denied"
        await tab.close()
