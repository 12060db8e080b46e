"""The approval broker through the real server: WebSocket tabs, REST answers, real tools."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from jarvis.common.i18n import t
from tests.support.live_server import LiveServer, Tab, live_server


def bash(command: str, text: str = "") -> dict[str, Any]:
    return {"text": text, "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


async def prompt(server: LiveServer, text: str = "run it") -> tuple[Tab, str]:
    tab = await Tab.open(server.ws_url())
    session = (await tab.next("session"))["session"]["id"]
    await tab.send(type="prompt", text=text)
    return tab, session


async def test_health_and_page_are_served(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            assert (await http.get("/api/health")).json()["ok"] is True
            page = await http.get("/")
            assert page.status_code == 200 and "JARVIS" in page.text
            assert (await http.get("/static/app.js")).status_code == 200
            assert (await http.get("/static/../server.py")).status_code == 404


async def test_an_answer_from_another_conversation_is_refused(tmp_path: Path) -> None:
    """Seed 002: the answering API checks the person AND the conversation. The same person's
    window on another session, or a program naming another session, cannot answer."""
    with live_server(tmp_path, [bash("echo from-the-right-window"), "done"]) as server:
        owner, session = await prompt(server)
        request = await owner.next("approval_request")
        other = await Tab.open(server.ws_url())
        other_session = (await other.next("session"))["session"]["id"]
        assert other_session != session
        await other.send(type="approval", id=request["id"], answer="allow")
        refused = await other.next("approval_answer")
        assert refused["result"] == "forbidden" and refused["status"] == 403
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            url = f"/api/approvals/{request['id']}"
            wrong = await http.post(url, json={"answer": "allow", "session_id": other_session})
            assert wrong.status_code == 403
            unnamed = await http.post(url, json={"answer": "allow"})
            assert unnamed.status_code == 422
        # Still pending: the owner's window answers it.
        await owner.send(type="approval", id=request["id"], answer="deny")
        assert (await owner.next("approval_resolved"))["status"] == "deny"
        await owner.close()
        await other.close()


async def test_two_tabs_see_the_request_and_the_first_answer_wins(tmp_path: Path) -> None:
    with live_server(tmp_path, [bash("echo hello-from-bash"), "done"]) as server:
        first, session = await prompt(server)
        second = await Tab.open(server.ws_url(session))
        await second.next("session")
        request = await first.next("approval_request")
        assert (await second.next("approval_request"))["id"] == request["id"]
        assert request["options"] == ["allow", "always", "deny"]
        assert request["pattern"] == "echo hello-from-bash"
        assert request["args"] == [
            {
                "key": "command",
                "value": "echo hello-from-bash",
                "original_length": 20,
                "shortened": False,
            }
        ]
        await second.send(type="approval", id=request["id"], answer="allow")
        for tab in (first, second):
            resolved = await tab.next("approval_resolved")
            assert resolved == {
                "type": "approval_resolved",
                "id": request["id"],
                "status": "allow",
                "timeout": False,
            }
        end = await first.next("tool_execution_end")
        assert not end["is_error"] and "hello-from-bash" in end["result_preview"]
        assert end["decision"]["reason"] == "user_once"
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            late = await http.post(
                f"/api/approvals/{request['id']}",
                json={"answer": "deny", "session_id": request["session_id"]},
            )
            assert late.status_code == 409
            missing = await http.post(
                "/api/approvals/nope", json={"answer": "deny", "session_id": request["session_id"]}
            )
            assert missing.status_code == 404
        await first.close()
        await second.close()


async def test_deny_ends_the_turn_with_the_fixed_line_and_no_model_call(tmp_path: Path) -> None:
    # Only one scripted response: a second model call would be an agent_error.
    with live_server(tmp_path, [bash("rm -r build")]) as server:
        tab, _ = await prompt(server)
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="deny")
        events = await tab.drain_until("agent_end")
        text = "".join(e.get("text_delta", "") for e in events if e["type"] == "message_update")
        assert t("approval.denied_turn_end", tools="bash") in text
        assert not [e for e in events if e["type"] == "agent_error"]
        assert events[-1]["ended_by"] == "denied"
        await tab.close()


async def test_timeout_resolves_every_tab_with_timeout_true(tmp_path: Path) -> None:
    with live_server(
        tmp_path, [bash("make deploy")], security={"approval_timeout_sec": 0.5}
    ) as server:
        tab, _ = await prompt(server)
        await tab.next("approval_request")
        resolved = await tab.next("approval_resolved")
        assert resolved["timeout"] is True and resolved["status"] == "timeout"
        events = await tab.drain_until("agent_end")
        text = "".join(e.get("text_delta", "") for e in events if e["type"] == "message_update")
        assert t("approval.timeout_turn_end", tools="bash") in text
        end = next(e for e in events if e["type"] == "tool_execution_end")
        assert end["decision"]["reason"] == "timeout"
        await tab.close()


async def test_a_tab_that_connects_while_pending_is_shown_the_request(tmp_path: Path) -> None:
    with live_server(tmp_path, [bash("ls -la"), "ok"]) as server:
        first, session = await prompt(server)
        request = await first.next("approval_request")
        await first.close()  # the user reloads the page
        reloaded = await Tab.open(server.ws_url(session))
        assert (await reloaded.next("approval_request"))["id"] == request["id"]
        await reloaded.send(type="approval", id=request["id"], answer="allow")
        assert (await reloaded.next("agent_end"))["ended_by"] == "answer"
        await reloaded.close()


async def test_no_connection_means_no_approver(tmp_path: Path) -> None:
    slow = {**bash("ls"), "delay_sec": 0.5}
    with live_server(tmp_path, [slow, "after"]) as server:
        tab, _ = await prompt(server)
        await tab.close()
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            for _ in range(50):
                audit = (await http.get("/api/audit")).json()
                if audit:
                    break
                await asyncio.sleep(0.1)
        assert [(r["outcome"], r["reason"]) for r in audit] == [("deny", "no_approver")]


async def test_abort_cancels_the_pending_item(tmp_path: Path) -> None:
    with live_server(tmp_path, [bash("sleep 1")]) as server:
        tab, _ = await prompt(server)
        request = await tab.next("approval_request")
        await tab.send(type="abort")
        resolved = await tab.next("approval_resolved")
        assert resolved["status"] == "cancelled"
        assert (await tab.next("agent_end"))["ended_by"] == "aborted"
        await tab.send(type="approval", id=request["id"], answer="allow")
        assert (await tab.next("approval_answer"))["status"] == 409
        await tab.close()


async def test_always_saves_the_rule_and_the_next_command_runs_without_asking(
    tmp_path: Path,
) -> None:
    script = [
        bash("git status"),
        "first",
        bash("git status --short"),
        "second",
        bash("git status && rm -rf x"),
        "third",
    ]
    with live_server(tmp_path, script) as server:
        tab, _ = await prompt(server)
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="always")
        await tab.next("agent_end")
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            files = (await http.get("/api/rules")).json()["files"]
            (rule,) = files["approvals/main.yaml"]
            assert (rule["tool"], rule["pattern"], rule["stale"]) == ("bash", "git status", False)
            tab.events.clear()
            await tab.send(type="prompt", text="again")
            events = await tab.drain_until("agent_end")
            assert not [e for e in events if e["type"] == "approval_request"]
            end = next(e for e in events if e["type"] == "tool_execution_end")
            assert end["decision"]["reason"] == "rule:approvals/main.yaml"
            await tab.send(type="prompt", text="chained")
            chained = await tab.next("approval_request")  # the chained variant still asks
            await tab.send(type="approval", id=chained["id"], answer="deny")
            await tab.next("agent_end")
            revoked = await http.post(
                "/api/rules/revoke", json={"agent": "main", "tool": "bash", "pattern": "git status"}
            )
            assert revoked.json()["removed"] == 1
            assert (await http.get("/api/rules")).json()["files"]["approvals/main.yaml"] == []
        await tab.close()


async def test_api_keys_name_the_user_and_guard_every_request(tmp_path: Path) -> None:
    keys = [{"name": "alice", "key": "k-alice"}, {"name": "bob", "key": "k-bob"}]
    with live_server(tmp_path, [bash("ls")], security={"api_keys": keys}) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            assert (await http.get("/api/sessions")).status_code == 401
            wrong = await http.get("/api/sessions", headers={"Authorization": "Bearer nope"})
            assert wrong.status_code == 401 and "API" in wrong.json()["detail"]
            # A key in the URL is no credential any more (URLs end up in logs and history).
            assert (await http.get("/api/sessions", params={"key": "k-bob"})).status_code == 401
            tab = await Tab.open(server.ws_url(), headers={"Authorization": "Bearer k-alice"})
            session = (await tab.next("session"))["session"]
            assert session["user_id"] == "alice"
            await tab.send(type="prompt", text="go")
            request = await tab.next("approval_request")
            bob = {"Authorization": "Bearer k-bob"}
            answer = await http.post(
                f"/api/approvals/{request['id']}",
                json={"answer": "deny", "session_id": request["session_id"]},
                headers=bob,
            )
            assert answer.status_code == 403
            history = await http.get(f"/api/sessions/{session['id']}/history", headers=bob)
            assert history.status_code == 403
            await tab.close()
        anonymous = await Tab.open(server.ws_url())
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await anonymous.next("session")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


async def test_rate_limit_answers_429_to_writes_and_never_to_reads(tmp_path: Path) -> None:
    with live_server(tmp_path, ["x"], security={"rate_limit_per_minute": 3}) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            reads = [(await http.get("/api/sessions")).status_code for _ in range(10)]
            writes = [(await http.post("/api/sessions")).status_code for _ in range(5)]
            after = (await http.get("/api/sessions")).status_code
        assert reads == [200] * 10  # a page load reads a dozen panels
        assert writes == [200, 200, 200, 429, 429]
        assert after == 200  # the history still shows while writes wait


async def test_big_bodies_are_refused_and_the_system_prompt_has_the_approval_rule(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, [bash("ls"), "ok"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            big = await http.post("/api/sessions", content=b"x" * 1_200_000)
            assert big.status_code == 413
        tab, _ = await prompt(server)
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="allow")
        await tab.next("agent_end")
        provider = next(iter(server.assembly._provider_cache.values()))
        system = provider.calls[0].system_prompt  # type: ignore[attr-defined]
        assert t("prompt.approval_rule") in system
        await tab.close()
