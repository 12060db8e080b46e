"""Where web_fetch may connect: the host is resolved here, every address it resolves to is
judged (`policy/network.py`), and the request is pinned to a checked address, so a DNS answer
that changes between the check and the connection (rebinding) cannot move it.

Pinning keeps the URL's host for what the server and TLS see: the request goes to
`http(s)://<address>:<port>/…` with `Host: <host>` and the TLS server name (SNI and certificate
check) set to the host.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from jarvis.core.policy.network import blocked_address, private_allowed, url_host


class FetchRefused(Exception):
    """web_fetch will not go there; the message is for the model."""


@dataclass(frozen=True)
class FetchGuard:
    allow_private: bool = False
    private_hosts: Sequence[str] = ()

    async def addresses(self, url: httpx.URL) -> list[str]:
        """The addresses to try for `url`, all of them allowed; refuses if any is not."""
        host = url_host(str(url)) or ""
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM
            )
        except (socket.gaierror, UnicodeError) as exc:
            raise FetchRefused(f"could not resolve {host}: {exc}") from exc
        found = list(dict.fromkeys(str(info[4][0]).split("%")[0] for info in infos))
        for address in found:
            reason = blocked_address(address)
            if reason is not None and not private_allowed(
                host,
                address,
                reason,
                allow_private=self.allow_private,
                allowed=self.private_hosts,
            ):
                raise FetchRefused(
                    f"refused: {host} resolves to {address}, a {reason} address. web_fetch does "
                    "not reach loopback, private, link-local or metadata addresses (the setting "
                    "JARVIS_SECURITY__WEB_FETCH_ALLOW_PRIVATE or __WEB_FETCH_PRIVATE_HOSTS "
                    "allows it); tell the user instead of trying another way"
                )
        if not found:
            raise FetchRefused(f"could not resolve {host}: no address")
        return found


def pinned(url: httpx.URL, address: str) -> tuple[httpx.URL, dict[str, str], dict[str, Any]]:
    """The URL to connect to, and the headers and extensions that keep the real host."""
    headers = {"Host": url.netloc.decode("ascii")}
    extensions: dict[str, Any] = {}
    if url.scheme == "https":
        extensions["sni_hostname"] = url.raw_host.decode("ascii")
    return url.copy_with(host=address), headers, extensions
