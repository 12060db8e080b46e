"""OAuth 2.1 for remote servers, through the MCP SDK's OAuth client (`OAuthClientProvider`).

`jarvis mcp login <name>` runs the browser flow once: a callback listener on 127.0.0.1, the
authorization URL opened in the browser, the code exchanged by the SDK (PKCE, dynamic client
registration). Tokens and the registered client are stored per server in the data dir with
0600 permissions; later connections reuse and refresh them. A server with no stored tokens
connects without OAuth, and a 401 then says to run the login command.
"""

from __future__ import annotations

import asyncio
import json
import os
import webbrowser
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.session import IncomingMessage
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from pydantic import AnyUrl

from jarvis.core.mcp.config import MCPServerConfig
from jarvis.core.mcp.transport import HttpRecord, SessionCallbacks, open_session


class FileTokenStorage(TokenStorage):
    """One server's tokens and client registration in one owner-only JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    async def get_tokens(self) -> OAuthToken | None:
        raw = self._read().get("tokens")
        return OAuthToken.model_validate(raw) if raw else None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self._write("tokens", tokens.model_dump(mode="json", exclude_none=True))

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        raw = self._read().get("client")
        return OAuthClientInformationFull.model_validate(raw) if raw else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._write("client", client_info.model_dump(mode="json", exclude_none=True))

    def exists(self) -> bool:
        return self.path.is_file()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, key: str, value: Any) -> None:
        data = self._read()
        data[key] = value
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temp = self.path.with_suffix(".tmp")
        # Created 0600 from the start: the tokens are never readable by others, not even briefly.
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(temp, self.path)


def token_path(data_dir: Path, server: str) -> Path:
    return data_dir / "mcp-oauth" / f"{server}.json"


def stored_auth(data_dir: Path) -> Callable[[MCPServerConfig], httpx2.Auth | None]:
    """For connections: OAuth for servers someone logged in to, nothing for the others."""

    def auth_for(config: MCPServerConfig) -> httpx2.Auth | None:
        storage = FileTokenStorage(token_path(data_dir, config.name))
        if config.transport == "stdio" or config.url is None or not storage.exists():
            return None
        return _provider(config.url, storage, _no_browser(config.name), _no_callback)

    return auth_for


async def login(
    config: MCPServerConfig,
    data_dir: Path,
    *,
    open_url: Callable[[str], Awaitable[None]] | None = None,
) -> None:
    """The browser flow for one server; returns once tokens are stored."""
    if config.url is None:
        raise ValueError(f"{config.name} is a local (stdio) server; only remote ones sign in")
    codes: asyncio.Queue[AuthorizationCodeResult] = asyncio.Queue()
    listener = await asyncio.start_server(_callback_handler(codes), "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]

    async def show(url: str) -> None:
        if open_url is not None:
            await open_url(url)
        else:
            print(url)
            webbrowser.open(url)

    storage = FileTokenStorage(token_path(data_dir, config.name))
    auth = _provider(config.url, storage, show, codes.get, port=port)
    try:
        async with open_session(
            config,
            on_message=_ignore,
            record=HttpRecord(),
            stderr_log=None,
            hooks=SessionCallbacks(),
            auth=auth,
        ):
            pass
    finally:
        listener.close()


def _provider(
    url: str,
    storage: TokenStorage,
    redirect: Callable[[str], Awaitable[None]],
    callback: Callable[[], Awaitable[AuthorizationCodeResult]],
    *,
    port: int = 0,
) -> OAuthClientProvider:
    metadata = OAuthClientMetadata(
        client_name="Jarvis",
        redirect_uris=[AnyUrl(f"http://127.0.0.1:{port or 1}/callback")],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    return OAuthClientProvider(
        server_url=url,
        client_metadata=metadata,
        storage=storage,
        redirect_handler=redirect,
        callback_handler=callback,
    )


class LoginRequired(Exception):
    pass


def _no_browser(server: str) -> Callable[[str], Awaitable[None]]:
    async def refuse(_url: str) -> None:
        # A connection in the background never opens a browser; the person runs the login.
        raise LoginRequired(f"run `jarvis mcp login {server}`")

    return refuse


async def _no_callback() -> AuthorizationCodeResult:
    raise LoginRequired("no interactive login in the background")


def _callback_handler(
    codes: asyncio.Queue[AuthorizationCodeResult],
) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request_line = (await reader.readline()).decode("latin-1")
        target = request_line.split(" ")[1] if request_line.count(" ") >= 2 else "/"
        query = parse_qs(urlsplit(target).query)
        code = (query.get("code") or [""])[0]
        states = query.get("state")
        state = states[0] if states else None
        body = b"Jarvis: signed in. You can close this window." if code else b"No code."
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n")
        writer.write(b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()
        if code:
            await codes.put(AuthorizationCodeResult(code=code, state=state))

    return handle


async def _ignore(message: IncomingMessage) -> None:
    return None
