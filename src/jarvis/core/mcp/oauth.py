"""OAuth 2.1 for remote servers, through the MCP SDK's OAuth client (`OAuthClientProvider`).

`jarvis mcp login <name>` runs the browser flow once: a callback listener on 127.0.0.1, the
authorization URL opened in the browser, the code exchanged by the SDK (PKCE, dynamic client
registration). Tokens and the registered client are stored per server in the data dir with
0600 permissions; later connections reuse and refresh them. A server with no stored tokens
connects without OAuth, and a 401 then says to run the login command.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
import webbrowser
from collections.abc import AsyncGenerator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx2
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.session import IncomingMessage
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthMetadata,
    OAuthToken,
    ProtectedResourceMetadata,
)
from pydantic import AnyUrl, BaseModel, ValidationError

from jarvis.core.mcp.config import MCPServerConfig
from jarvis.core.mcp.oauth_callback import BrowserReturn
from jarvis.core.mcp.session_parts import describe
from jarvis.core.mcp.transport import HttpRecord, SessionCallbacks, open_session


class FileTokenStorage(TokenStorage):
    """One server's tokens and client registration in one owner-only JSON file.

    `for_sign_in`: starts from the stored registration but no tokens (signing in again means a
    new grant), and writes nothing until tokens arrive, so a sign-in that is denied or abandoned
    leaves the file as it was (the SDK registers the client before it asks)."""

    def __init__(self, path: Path, *, for_sign_in: bool = False) -> None:
        self.path = path
        self._held: dict[str, Any] | None = None
        if for_sign_in:
            self._held = {k: v for k, v in self._read().items() if k == "client"}

    async def get_tokens(self) -> OAuthToken | None:
        raw = self._data().get("tokens")
        return OAuthToken.model_validate(raw) if raw else None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        data = self._data()
        data["tokens"] = tokens.model_dump(mode="json", exclude_none=True)
        if tokens.expires_in is not None:
            data["expires_at"] = time.time() + int(tokens.expires_in)
        else:
            data.pop("expires_at", None)
        self._held = None
        self._write(data)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        raw = self._data().get("client")
        return OAuthClientInformationFull.model_validate(raw) if raw else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        data = self._data()
        data["client"] = client_info.model_dump(mode="json", exclude_none=True)
        if self._held is None:
            self._write(data)

    def expires_at(self) -> float | None:
        """When the stored access token expires (epoch seconds; None: not said)."""
        value = self._data().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    def discovered(self) -> dict[str, Any]:
        """The metadata found at sign-in (`authorization_server`, `protected_resource`)."""
        found = self._data().get("discovered")
        return found if isinstance(found, dict) else {}

    def set_discovered(self, **metadata: BaseModel | None) -> None:
        data = self._data()
        data["discovered"] = {
            key: value.model_dump(mode="json", exclude_none=True)
            for key, value in metadata.items()
            if value is not None
        }
        self._write(data)

    def forget_client_unless_redirect(self, redirect_uri: str) -> None:
        """A sign-in listens on a new port each time: a client registered for another
        redirect URI would be refused by the authorization server, so it registers again."""
        data = self._data()
        client = data.get("client")
        if isinstance(client, dict) and redirect_uri not in client.get("redirect_uris", []):
            data.pop("client")

    @property
    def received_tokens(self) -> bool:
        """For a sign-in: whether tokens arrived (and the file was written)."""
        return self._held is None

    def exists(self) -> bool:
        return self.path.is_file()

    def _data(self) -> dict[str, Any]:
        return self._held if self._held is not None else self._read()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
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
    """The browser flow for one server; returns once tokens are stored, else `LoginFailed`.

    `open_url` shows the authorization URL (default: print it and open the browser); the
    tests pass an HTTP client that follows it like a browser would."""
    if config.url is None:
        raise LoginFailed(f"{config.name} is a local (stdio) server; only remote ones sign in")
    browser_return = BrowserReturn()
    listener = await asyncio.start_server(browser_return.handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]

    async def show(url: str) -> None:
        browser_return.expect(url)
        await (open_url or _open_in_browser)(url)

    storage = FileTokenStorage(token_path(data_dir, config.name), for_sign_in=True)
    storage.forget_client_unless_redirect(_redirect_uri(port))
    auth = _provider(config.url, storage, show, browser_return.result, port=port)
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
    except Exception as exc:
        # The SDK wraps what went wrong in task groups and transport errors; say the cause.
        raise LoginFailed(browser_return.failure or describe(exc)) from exc
    finally:
        listener.close()
    if browser_return.failure is not None:
        raise LoginFailed(browser_return.failure)
    if not storage.received_tokens:
        raise LoginFailed("the server did not ask for sign-in (it accepts requests without one)")


async def _open_in_browser(url: str) -> None:
    print(url)
    # `webbrowser.open` may wait for the browser command to exit: off the loop, which has to
    # keep answering the browser's return to the callback listener meanwhile.
    await asyncio.to_thread(webbrowser.open, url)


def _redirect_uri(port: int) -> str:
    return f"http://127.0.0.1:{port}/callback"


def _provider(
    url: str,
    storage: TokenStorage,
    redirect: Callable[[str], Awaitable[None]],
    callback: Callable[[], Awaitable[AuthorizationCodeResult]],
    *,
    port: int = 1,
) -> OAuthClientProvider:
    metadata = OAuthClientMetadata(
        client_name="Jarvis",
        redirect_uris=[AnyUrl(_redirect_uri(port))],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    return _RememberingOAuth(
        server_url=url,
        client_metadata=metadata,
        storage=storage,
        redirect_handler=redirect,
        callback_handler=callback,
    )


class _RememberingOAuth(OAuthClientProvider):
    """The SDK's provider, with what it learnt at sign-in kept in the token file.

    The SDK keeps the token's expiry and the discovered metadata in memory only. In a later
    process a stored token then counts as valid forever (once expired, the 401 sends the SDK
    into a browser sign-in, which a background connection cannot do), and a refresh goes to
    `/token` on the MCP server's origin, wrong wherever the authorization server lives
    elsewhere. Read back, an expired token is refreshed before it is sent, at the right place."""

    async def _initialize(self) -> None:
        await super()._initialize()
        storage = self.context.storage
        if not isinstance(storage, FileTokenStorage) or self.context.current_tokens is None:
            return
        self.context.token_expiry_time = storage.expires_at()
        found = storage.discovered()
        with contextlib.suppress(ValidationError):
            if "authorization_server" in found:
                self.context.oauth_metadata = OAuthMetadata.model_validate(
                    found["authorization_server"]
                )
                self.context.auth_server_url = str(self.context.oauth_metadata.issuer)
            if "protected_resource" in found:
                self.context.protected_resource_metadata = ProtectedResourceMetadata.model_validate(
                    found["protected_resource"]
                )

    async def _auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The SDK's flow, plus one step: a 401 for a token that still looked valid (the server
        forgot or revoked it early) is answered by a refresh before the SDK, which would go
        straight to a new browser sign-in, sees it."""
        flow = super()._auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            refreshed_before = outgoing is not request  # the SDK refreshed an expired token
            while True:
                response = yield outgoing
                if outgoing is request and not refreshed_before and response.status_code == 401:
                    refreshed_before = True
                    if self.context.can_refresh_token():
                        refreshed = yield await self._refresh_token()
                        if await self._handle_refresh_response(refreshed):
                            self._add_auth_header(request)
                            response = yield request
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        await super()._handle_token_response(response)
        storage, context = self.context.storage, self.context
        if isinstance(storage, FileTokenStorage):
            storage.set_discovered(
                authorization_server=context.oauth_metadata,
                protected_resource=context.protected_resource_metadata,
            )


class LoginFailed(Exception):
    """A sign-in that did not end with tokens; the message is one line for the person."""


class LoginRequired(Exception):
    pass


def _no_browser(server: str) -> Callable[[str], Awaitable[None]]:
    async def refuse(_url: str) -> None:
        # A connection in the background never opens a browser; the person runs the login.
        raise LoginRequired(f"run `jarvis mcp login {server}`")

    return refuse


async def _no_callback() -> AuthorizationCodeResult:
    raise LoginRequired("no interactive login in the background")


async def _ignore(message: IncomingMessage) -> None:
    return None
