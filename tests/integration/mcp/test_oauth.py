"""OAuth 2.1 end to end: `login` against a real authorization server (the SDK's `mcp.server.auth`
routes over an in-memory store), then connections that use, refresh and lose the tokens.

The "browser" is an HTTP client that follows the authorization URL and its redirect to the
callback listener on 127.0.0.1, as a browser would.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.mcp import MCPManager, MCPServerConfig
from jarvis.core.mcp.oauth import LoginFailed, login, stored_auth, token_path
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.registry import ToolRegistry
from tests.integration.mcp.conftest import ServeApp, wait_for
from tests.integration.mcp.servers.auth_server import (
    AuthLedger,
    build_authorization_server,
    build_protected_app,
)
from tests.support.ports import free_port

HTTP_BROWSER = Path(__file__).parent / "servers" / "http_browser.py"
Connect = Callable[[MCPServerConfig], Awaitable[tuple[MCPManager, ToolRegistry]]]
HINT = "the server asks for sign-in (401); run `jarvis mcp login secure`"


@dataclass
class Browser:
    """Follows the authorization URL like a browser; remembers where each visit landed."""

    landed: list[httpx2.Response] = field(default_factory=list)
    # Called with the authorization URL before it is followed (a stray visit, for example).
    first: Callable[[str], Awaitable[None]] | None = None

    async def __call__(self, url: str) -> None:
        if self.first is not None:
            await self.first(url)
        async with httpx2.AsyncClient(follow_redirects=True) as http:
            self.landed.append(await http.get(url))


@dataclass
class Protected:
    config: MCPServerConfig
    ledger: AuthLedger


@pytest.fixture(params=["one origin", "separate authorization server"])
async def protected(serve_app: ServeApp, request: pytest.FixtureRequest) -> Protected:
    """The protected server, being its own authorization server or trusting one elsewhere."""
    ledger = AuthLedger()
    port = free_port()
    issuer_port = None
    if request.param == "separate authorization server":
        issuer_port = free_port()
        await serve_app(build_authorization_server(issuer_port, ledger), port=issuer_port)
    await serve_app(build_protected_app(port, ledger, issuer_port=issuer_port), port=port)
    url = f"http://127.0.0.1:{port}/mcp"
    return Protected(MCPServerConfig(name="secure", transport="http", url=url), ledger)


@pytest.fixture
async def connect(
    tmp_path: Path,
) -> AsyncIterator[Connect]:
    """A manager that signs its requests with the tokens stored in tmp_path (as the app does)."""
    managers: list[MCPManager] = []

    async def make(config: MCPServerConfig) -> tuple[MCPManager, ToolRegistry]:
        registry = ToolRegistry()
        manager = MCPManager(registry, auth=stored_auth(tmp_path))
        managers.append(manager)
        await manager.start([config])
        await manager.wait_ready()
        return manager, registry

    yield make
    for manager in managers:
        await manager.aclose()


def stored(tmp_path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(token_path(tmp_path, "secure").read_text("utf-8"))
    return data


async def whoami(registry: ToolRegistry, tmp_path: Path) -> str:
    tool = registry.get("secure__whoami")
    assert tool is not None, registry.names()
    call = ToolCallContext(session_id="s1", agent_id="main", turn=1, abort=asyncio.Event())
    result = await tool.execute("call-1", {}, ToolEnv(workspace=tmp_path, call=call))
    assert not result.is_error, result
    return str(result.content)


async def test_login_stores_tokens_and_registration_owner_only_then_calls_succeed(
    protected: Protected, tmp_path: Path, connect: Connect
) -> None:
    browser = Browser()

    await login(protected.config, tmp_path, open_url=browser)

    path = token_path(tmp_path, "secure")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = stored(tmp_path)
    tokens, client = data["tokens"], data["client"]
    assert isinstance(tokens, dict) and isinstance(client, dict)
    assert client["client_id"] in protected.ledger.clients  # registered dynamically
    assert tokens["access_token"] in protected.ledger.access
    assert tokens["refresh_token"] in protected.ledger.refresh
    assert protected.ledger.grants == ["authorization_code"]
    # The browser went to the authorization server and came back to Jarvis's listener.
    (landed,) = browser.landed
    assert landed.status_code == 200 and landed.url.host == "127.0.0.1"
    assert landed.url.path == "/callback" and "signed in" in landed.text

    manager, registry = await connect(protected.config)

    assert manager.status()[0].state == "connected"
    assert "signed in" in await whoami(registry, tmp_path)
    assert protected.ledger.tokens_seen[-1] == tokens["access_token"]


async def test_an_expired_access_token_is_refreshed(
    protected: Protected, tmp_path: Path, connect: Connect
) -> None:
    # Tokens that say they expire at once: the next connection must refresh before it sends.
    protected.ledger.announced_lifetime = 0
    await login(protected.config, tmp_path, open_url=Browser())
    first = stored(tmp_path)["tokens"]
    assert isinstance(first, dict)
    protected.ledger.announced_lifetime = 3600

    manager, registry = await connect(protected.config)

    assert manager.status()[0].state == "connected", manager.status()[0].error
    assert protected.ledger.grants == ["authorization_code", "refresh_token"]
    renewed = stored(tmp_path)["tokens"]
    assert isinstance(renewed, dict) and renewed["access_token"] != first["access_token"]
    assert "signed in" in await whoami(registry, tmp_path)
    # The refresh rotated the tokens: only the new access token is valid, and it was used.
    assert list(protected.ledger.access) == [renewed["access_token"]]
    assert protected.ledger.tokens_seen[-1] == renewed["access_token"]
    assert stat.S_IMODE(token_path(tmp_path, "secure").stat().st_mode) == 0o600


async def test_an_access_token_the_server_forgot_is_refreshed_not_re_asked(
    protected: Protected, tmp_path: Path, connect: Connect
) -> None:
    await login(protected.config, tmp_path, open_url=Browser())
    protected.ledger.access.clear()  # still valid by its expiry, but the server says 401

    manager, registry = await connect(protected.config)

    assert manager.status()[0].state == "connected", manager.status()[0].error
    assert protected.ledger.grants == ["authorization_code", "refresh_token"]
    assert "signed in" in await whoami(registry, tmp_path)


async def test_a_revoked_refresh_token_needs_login_and_a_new_login_heals(
    protected: Protected, tmp_path: Path, connect: Connect
) -> None:
    protected.ledger.announced_lifetime = 0
    await login(protected.config, tmp_path, open_url=Browser())
    protected.ledger.revoke_refresh_tokens()

    manager, registry = await connect(protected.config)

    status = manager.status()[0]
    assert status.state == "needs_login"
    assert status.error == HINT
    assert "refresh_token" not in protected.ledger.grants

    # Signing in again (on a new callback port: the client registers again) heals it.
    protected.ledger.announced_lifetime = 3600
    await login(protected.config, tmp_path, open_url=Browser())
    manager.reconnect("secure")
    await wait_for(lambda: manager.status()[0].state == "connected")
    assert "signed in" in await whoami(registry, tmp_path)
    assert manager.status()[0].state == "connected"


async def test_a_denied_authorization_is_one_clear_line_and_writes_no_token_file(
    protected: Protected, tmp_path: Path
) -> None:
    protected.ledger.deny = True
    browser = Browser()

    with pytest.raises(LoginFailed) as failed:
        await login(protected.config, tmp_path, open_url=browser)

    message = str(failed.value)
    assert message == (
        "the authorization server refused the sign-in: access_denied (the user declined)"
    )
    assert "\n" not in message
    assert not token_path(tmp_path, "secure").exists()
    assert browser.landed[0].status_code == 400  # the listener told the browser, too
    assert protected.ledger.grants == []


async def test_the_callback_listener_rejects_a_wrong_state(
    protected: Protected, tmp_path: Path
) -> None:
    strays: list[httpx2.Response] = []

    async def stray_visit(authorization_url: str) -> None:
        # Someone else's answer reaches the listener first: a code with the wrong state.
        query = parse_qs(urlsplit(authorization_url).query)
        callback = query["redirect_uri"][0]
        forged = urlencode({"code": "forged", "state": "not-the-state"})
        async with httpx2.AsyncClient() as http:
            strays.append(await http.get(f"{callback}?{forged}"))
            strays.append(await http.get(callback))  # no state at all

    await login(protected.config, tmp_path, open_url=Browser(first=stray_visit))

    assert [response.status_code for response in strays] == [400, 400]
    # The sign-in went on and used the real code only.
    assert protected.ledger.grants == ["authorization_code"]
    assert token_path(tmp_path, "secure").exists()


async def test_jarvis_mcp_login_opens_the_browser_and_asks_the_app_to_reconnect(
    protected: Protected, tmp_path: Path
) -> None:
    """The command as a person runs it: the default opener (`webbrowser`, here `$BROWSER`)."""
    url = protected.config.url
    assert url is not None
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"secure": {"url": url}}}))
    browser = f"{sys.executable} {HTTP_BROWSER} %s"
    env = {**os.environ, "JARVIS_HOME": str(tmp_path), "JARVIS_LANGUAGE": "en", "BROWSER": browser}
    jarvis = Path(sys.executable).parent / "jarvis"

    process = await asyncio.create_subprocess_exec(
        str(jarvis), "mcp", "login", "secure", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()

    assert process.returncode == 0, err.decode()
    assert out.decode().splitlines()[-1] == "secure: signed in"
    assert protected.ledger.grants == ["authorization_code"]
    assert stat.S_IMODE(token_path(tmp_path, "secure").stat().st_mode) == 0o600
    assert (tmp_path / "mcp-reconnect").read_text(encoding="utf-8") == "secure"

    protected.ledger.deny = True
    process = await asyncio.create_subprocess_exec(
        str(jarvis), "mcp", "login", "secure", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()

    assert process.returncode == 1
    assert err.decode().strip() == (
        "secure: sign-in failed — the authorization server refused the sign-in: "
        "access_denied (the user declined)"
    )


async def test_login_to_a_server_that_asks_for_no_sign_in_says_so(
    demo_config: Callable[..., Awaitable[MCPServerConfig]], tmp_path: Path
) -> None:
    config = await demo_config("http")
    browser = Browser()

    with pytest.raises(LoginFailed, match="did not ask for sign-in"):
        await login(config, tmp_path, open_url=browser)

    assert browser.landed == []
    assert not token_path(tmp_path, "demo").exists()
