"""Where the browser comes back to after an OAuth sign-in: a listener on 127.0.0.1.

Only the answer to this sign-in's request counts: a request whose `state` is not the one in
the authorization URL (a stale tab, another site, a browser's favicon fetch) gets a 400 and
the listener keeps waiting. An error the authorization server sent back (`error=access_denied`)
ends the sign-in with that reason.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Final
from urllib.parse import parse_qs, urlsplit

from mcp.shared.auth import AuthorizationCodeResult

# How long a sign-in waits for the person in the browser.
SIGN_IN_WAIT_SEC: Final = 300.0
_SIGNED_IN: Final = b"Jarvis: signed in. You can close this window."
_REFUSED: Final = b"Jarvis: the sign-in did not succeed; see the terminal."
_NOT_OURS: Final = b"Jarvis: this is not the answer to the current sign-in."


class BrowserReturn:
    """The callback listener's side of one sign-in (`expect` first, then `result`)."""

    def __init__(self, wait_sec: float = SIGN_IN_WAIT_SEC) -> None:
        self.failure: str | None = None  # why the sign-in ended without a code
        self._state: str | None = None
        self._wait_sec = wait_sec
        self._answer: asyncio.Future[AuthorizationCodeResult] = (
            asyncio.get_running_loop().create_future()
        )

    def expect(self, authorization_url: str) -> None:
        """Remember the `state` the authorization URL carries: only it may come back."""
        self._state = _first(parse_qs(urlsplit(authorization_url).query), "state")

    async def result(self) -> AuthorizationCodeResult:
        try:
            async with asyncio.timeout(self._wait_sec):
                return await asyncio.shield(self._answer)
        except TimeoutError:
            self.failure = f"no answer from the browser within {self._wait_sec:g} s"
            raise LoginAborted(self.failure) from None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request_line = (await reader.readline()).decode("latin-1")
        target = request_line.split(" ")[1] if request_line.count(" ") >= 2 else "/"
        status, body = self._answer_for(parse_qs(urlsplit(target).query))
        writer.write(b"HTTP/1.1 %d %s\r\n" % (status, b"OK" if status == 200 else b"Bad Request"))
        writer.write(b"Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n")
        writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()

    def _answer_for(self, query: dict[str, list[str]]) -> tuple[int, bytes]:
        state = _first(query, "state")
        if self._answer.done() or self._state is None or state is None:
            return 400, _NOT_OURS
        if not secrets.compare_digest(state, self._state):
            return 400, _NOT_OURS
        error, code = _first(query, "error"), _first(query, "code")
        if error is not None or not code:
            said = _first(query, "error_description")
            reason = f"{error or 'no code'}{f' ({said})' if said else ''}"
            self.failure = f"the authorization server refused the sign-in: {reason}"
            self._answer.set_exception(LoginAborted(self.failure))
            return 400, _REFUSED
        self._answer.set_result(
            AuthorizationCodeResult(code=code, state=state, iss=_first(query, "iss"))
        )
        return 200, _SIGNED_IN


class LoginAborted(Exception):
    pass


def _first(query: dict[str, list[str]], key: str) -> str | None:
    values = query.get(key)
    return values[0] if values else None
