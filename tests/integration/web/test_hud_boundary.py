"""Who can reach the HUD, through the real server: Host, Origin, the launch token, cookies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from jarvis.common.i18n import t
from jarvis.ui.web.security import CONTENT_SECURITY_POLICY
from jarvis.ui.web.session_cookie import SECRET_FILE
from tests.support.live_server import LiveServer, Tab, live_server
from tests.support.ports import free_port


def bash(command: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def session_files(home: Path) -> list[Path]:
    folder = home / "sessions"
    return sorted(folder.iterdir()) if folder.exists() else []


def with_origin(server: LiveServer, origin: str) -> dict[str, str]:
    """The HUD's cookie (the browser sends it: SameSite ignores ports) from another page."""
    return {**server.headers, "Origin": origin}


async def refused_handshake(url: str, headers: dict[str, str], **connect: Any) -> int:
    with pytest.raises(InvalidStatus) as refused:
        await websockets.connect(url, additional_headers=headers, **connect)
    return refused.value.response.status_code


async def test_a_cross_origin_websocket_is_refused_before_a_session_exists(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, [bash("echo pwned")]) as server:
        for origin in ("https://evil.example", "null", f"http://localhost:{free_port()}"):
            status = await refused_handshake(server.ws_url(), with_origin(server, origin))
            assert status == 403, origin
        assert session_files(tmp_path) == []
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            assert (await http.get("/api/sessions")).json() == []
        own = await Tab.open(server.ws_url(), headers=with_origin(server, server.url))
        await own.next("session")  # the HUD's own origin (and localhost spellings) pass
        await own.close()


async def test_a_page_on_another_local_port_cannot_drive_the_hud(tmp_path: Path) -> None:
    with live_server(tmp_path, [bash("echo pwned"), "done"]) as server:
        tab = await Tab.open(server.ws_url())
        await tab.send(type="prompt", text="run it")
        request = await tab.next("approval_request")
        other_port = with_origin(server, f"http://127.0.0.1:{free_port()}")
        async with httpx.AsyncClient(base_url=server.url, headers=other_port) as page:
            answer = await page.post(
                f"/api/approvals/{request['id']}",
                json={"answer": "allow", "session_id": request["session_id"]},
            )
            assert answer.status_code == 403
            assert (await page.post("/api/sessions")).status_code == 403
            revoke = await page.post("/api/rules/revoke", json={"tool": "bash", "pattern": "*"})
            assert revoke.status_code == 403
        assert await refused_handshake(server.ws_url(), other_port) == 403
        await tab.send(type="approval", id=request["id"], answer="deny")
        assert (await tab.next("approval_resolved"))["status"] == "deny"
        await tab.close()


async def test_an_unknown_host_header_is_refused_over_http_and_websocket(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        evil = f"evil.example:{server.port}"
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            for path in ("/", "/api/health", "/api/sessions"):
                assert (await http.get(path, headers={"Host": evil})).status_code == 400
            assert (await http.get("/api/health", headers={"Host": "localhost"})).status_code == 200
        status = await refused_handshake(
            f"ws://{evil}/ws", server.headers, host="127.0.0.1", port=server.port
        )
        assert status == 400
        assert session_files(tmp_path) == []


async def test_a_configured_host_and_origin_are_allowed(tmp_path: Path) -> None:
    web = {"allowed_hosts": ["jarvis.lan"], "allowed_origins": ["https://hud.example"]}
    with live_server(tmp_path, ["hi"], web=web) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            host = {"Host": f"jarvis.lan:{server.port}"}
            assert (await http.get("/api/sessions", headers=host)).status_code == 200
            origin = {"Origin": "https://hud.example"}
            assert (await http.post("/api/sessions", headers=origin)).status_code == 200


async def test_no_credentials_get_401_and_the_gate_page(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            assert (await http.get("/api/health")).status_code == 200
            for path in ("/api/sessions", "/api/rules", "/api/audit", "/docs"):
                assert (await http.get(path)).status_code == 401, path
            created = await http.post("/api/sessions", headers={"Origin": server.url})
            assert created.status_code == 401
            page = await http.get("/")
            assert page.status_code == 401
            assert t("web.gate_open_url") in page.text and 'id="modal"' not in page.text
            bearer = {"Authorization": f"Bearer {server.token}"}  # scripts with a fixed token
            assert (await http.get("/api/sessions", headers=bearer)).status_code == 200
        anonymous = await Tab.open(server.ws_url(), headers={"Origin": server.url})
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await anonymous.next("session")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        assert session_files(tmp_path) == []


async def test_the_launch_token_becomes_an_httponly_strict_cookie_and_leaves_the_url(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            opened = await http.get("/", params={"token": server.token, "session": "s1"})
            assert opened.status_code == 303
            assert opened.headers["location"] == "/?session=s1"
            set_cookie = opened.headers["set-cookie"]
            assert set_cookie.startswith(f"{server.cookie_name}=")
            for attribute in ("HttpOnly", "SameSite=strict", "Path=/"):
                assert attribute.lower() in set_cookie.lower()
            value = opened.cookies[server.cookie_name]
            assert server.token not in value and len(value) > 40
            jar = {"Cookie": f"{server.cookie_name}={value}"}
            hud = await http.get("/", headers=jar)
            assert hud.status_code == 200 and 'id="modal"' in hud.text
            listed = await http.get("/api/sessions", headers=jar)
            assert listed.status_code == 200


async def test_a_wrong_token_is_refused(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            wrong = await http.get("/", params={"token": server.token + "x"})
            assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
            assert t("web.gate_bad_token") in wrong.text
            forged = {"Cookie": f"{server.cookie_name}={server.token}"}
            assert (await http.get("/api/sessions", headers=forged)).status_code == 401


async def test_a_cookie_survives_a_restart_but_not_a_new_secret(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as first:
        cookie = first.cookie
    assert cookie is not None and (tmp_path / SECRET_FILE).stat().st_mode & 0o777 == 0o600

    async def accepted(server: LiveServer) -> bool:
        jar = {server.cookie_name: str(cookie)}
        async with httpx.AsyncClient(base_url=server.url, cookies=jar) as http:
            return (await http.get("/api/sessions")).status_code == 200

    with live_server(tmp_path, ["hi"]) as restarted:
        assert await accepted(restarted)
    (tmp_path / SECRET_FILE).unlink()
    with live_server(tmp_path, ["hi"]) as relaunched:
        assert not await accepted(relaunched)


async def test_api_key_login_sets_an_opaque_cookie_never_the_key(tmp_path: Path) -> None:
    keys = [{"name": "alice", "key": "k-alice-secret"}]
    with live_server(tmp_path, ["hi"], security={"api_keys": keys}) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            gate = await http.get("/")
            assert gate.status_code == 401 and 'id="login"' in gate.text
            hud = {"Origin": server.url}
            wrong = await http.post("/api/login", json={"key": "nope"}, headers=hud)
            assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
            foreign = {"Origin": "https://evil.example"}
            refused = await http.post("/api/login", json={"key": "k-alice-secret"}, headers=foreign)
            assert refused.status_code == 403
            login = await http.post("/api/login", json={"key": "k-alice-secret"}, headers=hud)
            assert login.status_code == 200 and login.json() == {"user": "alice"}
            value = login.cookies[server.cookie_name]
            assert "k-alice-secret" not in login.headers["set-cookie"]
            assert "httponly" in login.headers["set-cookie"].lower()
            jar = {"Cookie": f"{server.cookie_name}={value}", **hud}
            created = await http.post("/api/sessions", headers=jar)
            assert created.status_code == 200 and created.json()["user_id"] == "alice"
            tab = await Tab.open(server.ws_url(), headers=jar)
            assert (await tab.next("session"))["session"]["user_id"] == "alice"
            await tab.close()


async def test_the_websocket_needs_no_query_credentials(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hello"]) as server:
        assert "?" not in server.ws_url()
        tab = await Tab.open(server.ws_url())  # the cookie and the HUD's Origin, nothing else
        await tab.next("session")
        await tab.send(type="prompt", text="hi")
        assert (await tab.next("agent_end"))["ended_by"] == "answer"
        await tab.close()


async def test_security_headers_on_pages_assets_and_api(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            responses = [
                await http.get(path)
                for path in ("/", "/static/app.js", "/api/health", "/api/sessions", "/nope")
            ]
            responses.append(await http.get("/", headers={"Host": "evil.example"}))
            responses.append(await http.get("/", headers={"Cookie": ""}))
        for response in responses:
            assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
            assert response.headers["x-content-type-options"] == "nosniff"
            assert response.headers["x-frame-options"] == "DENY"
            assert response.headers["referrer-policy"] == "no-referrer"
        for api in responses[2:4]:
            assert api.headers["cache-control"] == "no-store"
        assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
        assert "<script>" not in responses[0].text and "style=" not in responses[0].text


async def test_a_chunked_body_over_the_limit_is_refused(tmp_path: Path) -> None:
    async def chunks() -> Any:
        for _ in range(32):
            yield b"x" * 65_536  # 2 MiB without a Content-Length (chunked transfer)

    async def one_chunk() -> Any:
        yield b"{}"

    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            big = await http.post("/api/sessions", content=chunks())
            assert big.status_code == 413
            assert big.request.headers.get("transfer-encoding") == "chunked"
            small = await http.post("/api/sessions", content=one_chunk())
            assert small.status_code == 200
        assert len(session_files(tmp_path)) <= 1


async def test_websocket_connects_count_against_the_rate_limit(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"], security={"rate_limit_per_minute": 3}) as server:
        tabs = [await Tab.open(server.ws_url()) for _ in range(3)]
        for tab in tabs:
            await tab.next("session")
        flood = await Tab.open(server.ws_url())
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await flood.next("session")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        for tab in tabs:
            await tab.close()


async def test_a_binary_frame_and_deeply_nested_json_get_an_error_and_the_socket_lives(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, ["still here"]) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.ws.send(b'{"type": "prompt", "text": "hi"}')
        assert (await tab.next("error"))["message"] == t("web.binary_frame")
        await tab.ws.send("[" * 10_000 + "]" * 10_000)
        assert (await tab.next("error"))["message"] == t("web.message_too_deep")
        await tab.ws.send('{"type": "prompt"')
        assert (await tab.next("error"))["message"].startswith(t("web.bad_message", detail=""))
        await tab.send(type="prompt", text="are you there?")
        end = await tab.next("agent_end")
        assert end["final_message"]["content"] == "still here"
        await tab.close()
