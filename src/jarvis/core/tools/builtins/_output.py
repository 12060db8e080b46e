"""Output caps with a visible notice, so the model knows it did not see everything."""

from __future__ import annotations

# Reading this much of a file tells text from binary the way git and grep do: a NUL byte.
SNIFF_BYTES = 8192

# UTF-8 continuation bytes never start a character, so what is left after deleting them counts
# the characters of a stream without decoding it.
_CONTINUATION = bytes(range(0x80, 0xC0))


def truncate(text: str, limit: int, *, total: int | None = None) -> str:
    """`text` cut to `limit` characters; `total` is the full length when `text` is only a head."""
    full = len(text) if total is None else total
    if full <= limit:
        return text
    shown = min(limit, len(text))
    return f"{text[:shown]}\n[truncated: showing {shown:,} of {full:,} characters]"


def cap_items(items: list[str], limit: int, unit: str) -> str:
    """One item a line, at most `limit` of them."""
    if len(items) <= limit:
        return "\n".join(items)
    shown = "\n".join(items[:limit])
    return f"{shown}\n[truncated: showing {limit:,} of {len(items):,} {unit}]"


def clip_line(line: str, limit: int) -> str:
    """One long line (minified code, a data blob) must not crowd out the other results."""
    if len(line) <= limit:
        return line
    return f"{line[:limit]}… [{len(line) - limit:,} more characters]"


def is_binary(head: bytes) -> bool:
    return b"\x00" in head


class ByteBudget:
    """Keeps the first `keep` bytes of a stream and counts all of it: memory stays bounded however
    much a command prints or a server sends."""

    def __init__(self, keep: int) -> None:
        self._keep = keep
        self._kept = bytearray()
        self.total_bytes = 0
        # Exact for UTF-8; invalid bytes make it an estimate, which is enough for a notice.
        self.total_chars = 0

    def add(self, chunk: bytes) -> None:
        room = self._keep - len(self._kept)
        if room > 0:
            self._kept += chunk[:room]
        self.total_bytes += len(chunk)
        self.total_chars += len(chunk.translate(None, _CONTINUATION))

    @property
    def overflowed(self) -> bool:
        return self.total_bytes > self._keep

    @property
    def data(self) -> bytes:
        return bytes(self._kept)

    def text(self, limit_chars: int) -> str:
        """The kept bytes as text, capped at `limit_chars` with a notice counting everything."""
        decoded = self._kept.decode("utf-8", errors="replace")
        return truncate(decoded, limit_chars, total=max(self.total_chars, len(decoded)))
