"""One conditional GET of a source's URL, through web_fetch's guard (`_fetch_guard`): the host
is resolved and judged (loopback, private, metadata refused unless the settings allow them) and
the request is pinned to a checked address. Redirects are not followed here: a 301/308 is the
poll's business (it moves the source); a temporary one is followed within the poll, each hop
judged again."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from jarvis.core.tools.builtins._fetch_guard import FetchGuard, FetchRefused, pinned

MAX_BYTES = 5 * 1024 * 1024
MAX_TEMPORARY_REDIRECTS = 3
_USER_AGENT = "Jarvis-sources/1 (+https://github.com/jarvis)"


@dataclass(frozen=True)
class Answer:
    url: str  # the URL that answered (after temporary redirects)
    code: int
    headers: dict[str, str]  # lower-case names
    body: bytes


class SourceFetcher:
    def __init__(self, guard: FetchGuard, timeout_sec: float = 20.0) -> None:
        self.guard = guard
        self.timeout = timeout_sec

    async def get(self, url: str, headers: dict[str, str]) -> Answer:
        """Raises `FetchRefused` (the guard said no) or `httpx.HTTPError`."""
        current = httpx.URL(url)
        async with httpx.AsyncClient(timeout=self.timeout) as client:
            for _ in range(MAX_TEMPORARY_REDIRECTS + 1):
                answer = await self._once(client, current, headers)
                location = answer.headers.get("location", "")
                if answer.code in (302, 303, 307) and location:
                    current = current.join(location)
                    if current.scheme not in ("http", "https"):
                        raise FetchRefused(f"{url} redirects to a non-http URL")
                    continue
                return answer
        raise FetchRefused(f"{url}: more than {MAX_TEMPORARY_REDIRECTS} redirects")

    async def _once(
        self, client: httpx.AsyncClient, url: httpx.URL, extra: dict[str, str]
    ) -> Answer:
        failed: httpx.ConnectError | None = None
        for address in await self.guard.addresses(url):
            target, host, extensions = pinned(url, address)
            request = client.build_request(
                "GET",
                target,
                headers={**host, **extra, "User-Agent": _USER_AGENT},
                extensions=extensions,
            )
            try:
                response = await client.send(request, stream=True)
            except httpx.ConnectError as exc:
                failed = exc
                continue
            try:
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_BYTES:
                        raise FetchRefused(f"{url}: larger than {MAX_BYTES} bytes")
                names = {k.lower(): v for k, v in response.headers.items()}
                return Answer(str(url), response.status_code, names, bytes(body))
            finally:
                await response.aclose()
        assert failed is not None
        raise failed
