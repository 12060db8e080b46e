"""Small pieces of one MCP session: errors, the progress-aware clock, death checks, listing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:  # the SDK loads with the first connection, not with the server (start-up)
    import mcp_types
    from mcp import Client

_T = TypeVar("_T")
_MAX_PAGES: Final = 100
# How often a session's dispatcher is checked for having stopped: a safety net only, since the
# end of the transport's stream is signalled at once (transport.py); a flag read, no traffic.
_DEATH_TICK_SEC: Final = 1.0


class MCPServerError(Exception):
    """A call or connect that failed; the message names the server."""

    def __init__(self, server: str, reason: str, *, code: int | None = None) -> None:
        super().__init__(f"MCP server {server!r}: {reason}")
        self.server = server
        self.reason = reason
        self.code = code


async def within(work: Awaitable[_T], limit_sec: float, progressed: asyncio.Event | None) -> _T:
    """Await `work`; time out after `limit_sec` seconds without an answer or a progress report."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=limit_sec)
            if done:
                return task.result()
            if progressed is None or not progressed.is_set():
                raise TimeoutError
            progressed.clear()
    finally:
        if not task.done():
            task.cancel()
            await asyncio.wait({task})


def dispatcher_closed(client: Client) -> bool:
    # The SDK marks its dispatcher closed on EOF but has no public flag or event for it.
    dispatcher = getattr(client.session, "_dispatcher", None)
    return bool(getattr(dispatcher, "_closed", False))


async def until_dispatcher_closed(client: Client) -> None:
    while not dispatcher_closed(client):  # noqa: ASYNC110 - the SDK offers no event to wait on
        await asyncio.sleep(_DEATH_TICK_SEC)


async def all_pages(
    list_page: Callable[[str | None], Awaitable[Any]], field: str, max_pages: int = _MAX_PAGES
) -> list[Any]:
    """Every item of a paginated MCP list (`tools`, `resources`, …), at most `max_pages` pages."""
    found: list[Any] = []
    cursor: str | None = None
    for _ in range(max_pages):
        page = await list_page(cursor)
        found.extend(getattr(page, field))
        cursor = page.next_cursor
        if cursor is None:
            break
    return found


async def list_all_tools(client: Client) -> list[mcp_types.Tool]:
    return await all_pages(lambda cursor: client.list_tools(cursor=cursor), "tools")


def login_hint(server: str) -> str:
    return f"the server asks for sign-in (401); run `jarvis mcp login {server}`"


def describe(exc: BaseException) -> str:
    """The innermost cause, not the task group wrapped around it."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
