"""Where web_fetch may go: the host a URL names, host rule patterns, and the addresses that are
never fetched by default (loopback, private, link-local, shared/CGNAT, multicast, unspecified,
reserved, cloud metadata). Pure; DNS is resolved at the edge (`builtins/_fetch_guard.py`).

API:
- `url_host(url) -> str | None`: the host as httpx (the client that connects) parses it, ASCII
  (punycode), lower case, without a trailing dot; None for a URL httpx refuses or one without a
  host. The gate matches rules on this, so it can never disagree with where the tool connects.
- `normalise_host_pattern(pattern) -> str` (raises ValueError): a host rule pattern: `*` (any
  host), `docs.python.org` (that host only), `*.example.com` (any subdomain, not the apex), or
  an IP address.
- `host_covered(pattern, host) -> bool`.
- `blocked_address(address) -> str | None`: why an IP address is not fetched (`loopback`,
  `private`, `link-local`, `shared`, `multicast`, `unspecified`, `reserved`, `metadata`), or
  None for a public address. IPv4 embedded in IPv6 (mapped, 6to4, NAT64) is judged as IPv4.
- `private_allowed(host, address, reason, *, allow_private, allowed)`: the settings' exceptions:
  `allow_private` opens everything but cloud metadata; `allowed` lists host names (exact) and
  IP networks that may be reached even so (metadata too, when listed explicitly).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

import httpx

ANY_HOST = "*"
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_HOSTNAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200")
)
_V4: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "unspecified"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "reserved"),
    ("192.0.2.0/24", "reserved"),
    ("192.88.99.0/24", "reserved"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "private"),
    ("198.51.100.0/24", "reserved"),
    ("203.0.113.0/24", "reserved"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
)
_V6: tuple[tuple[str, str], ...] = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::/96", "reserved"),  # IPv4-compatible (deprecated)
    ("64:ff9b:1::/48", "private"),
    ("100::/64", "reserved"),
    ("2001::/32", "reserved"),  # Teredo
    ("2001:db8::/32", "reserved"),
    ("fc00::/7", "private"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "private"),
    ("ff00::/8", "multicast"),
)
_V4_NETS = tuple((ipaddress.IPv4Network(n), why) for n, why in _V4)
_V6_NETS = tuple((ipaddress.IPv6Network(n), why) for n, why in _V6)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def url_host(url: str) -> str | None:
    try:
        raw = httpx.URL(url.strip()).raw_host
    except (httpx.InvalidURL, TypeError, UnicodeError):
        return None
    host = raw.decode("ascii", "replace").lower().rstrip(".")
    return host.strip("[]") or None


def normalise_host_pattern(pattern: str) -> str:
    text = pattern.strip().lower().rstrip(".")
    if text == ANY_HOST:
        return text
    name = text.removeprefix("*.")
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        if not _HOSTNAME.fullmatch(name):
            raise ValueError(
                f"web_fetch takes a host pattern ('docs.python.org', '*.example.com' or '*'), "
                f"not {pattern!r}"
            ) from None
        return text
    if name != text:
        raise ValueError(f"'*.' cannot prefix an IP address: {pattern!r}")
    return name.strip("[]")


def host_covered(pattern: str, host: str) -> bool:
    if pattern == ANY_HOST:
        return True
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and len(host) > len(pattern) - 1
    return host == pattern


def blocked_address(address: str | IPAddress) -> str | None:
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if ip in METADATA_ADDRESSES:
        return "metadata"
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = _embedded_v4(ip)
        if embedded is not None:
            return blocked_address(embedded)
        return next((why for net, why in _V6_NETS if ip in net), None)
    return next((why for net, why in _V4_NETS if ip in net), None)


def private_allowed(
    host: str, address: str, reason: str, *, allow_private: bool, allowed: Iterable[str]
) -> bool:
    ip = ipaddress.ip_address(address)
    for entry in allowed:
        if entry.lower().rstrip(".") == host:
            return True
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return allow_private and reason != "metadata"


def validate_allowed_entry(entry: str) -> str:
    """A `web_fetch_private_hosts` entry: an exact host name or an IP network."""
    text = entry.strip().lower().rstrip(".")
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        if not _HOSTNAME.fullmatch(text):
            raise ValueError(f"{entry!r} is neither a host name nor an IP network") from None
    return text


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None
