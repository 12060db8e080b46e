"""The normal form of a URL, so the same page cited twice gets one reference number (pure)."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

# Query parameters that only say where a click came from: never part of what the page is.
_TRACKING = re.compile(r"^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref_src|igshid)$", re.IGNORECASE)
_DEFAULT_PORTS = {"http": 80, "https": 443}
URL_IN_TEXT = re.compile(r"https?://[^\s<>()\[\]\"'`]+", re.IGNORECASE)


def normalise_url(url: str) -> str:
    """Scheme and host lower-cased, default port, fragment and tracking parameters dropped,
    remaining parameters sorted, an empty path as `/`, a trailing slash of a deeper path
    dropped, percent-escapes in one canonical form. Not a URL (no scheme or host): stripped."""
    text = url.strip()
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return text
    host = parts.hostname.lower().rstrip(".")
    if parts.port is not None and parts.port != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{parts.port}"
    path = quote(unquote(parts.path), safe="/:@!$&'()*+,;=-._~") or "/"
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    query = sorted(
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.match(k)
    )
    return urlunsplit((scheme, host, path, urlencode(query), ""))


def urls_in(text: str) -> list[str]:
    """The http(s) URLs in `text`, in order, without trailing punctuation."""
    return [m.group(0).rstrip(".,;:!?") for m in URL_IN_TEXT.finditer(text)]
