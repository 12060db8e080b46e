"""What one poll's HTTP answer means for a source, as pure functions.

The status (`<id>.status.json` beside the definition) carries the validators of the last
answer (ETag, Last-Modified) for a conditional request, the URL in use (a 301 moves it), a
pause (410) or a retry time (429 `Retry-After`), and one line saying what happened last.
"""

from __future__ import annotations

import email.utils
from dataclasses import dataclass, replace
from typing import Literal

Action = Literal["parse", "unchanged", "retry_later", "gone", "moved", "failed"]
DEFAULT_RETRY_SEC = 3600
MAX_RETRY_SEC = 7 * 86400


@dataclass(frozen=True)
class SourceStatus:
    url: str = ""  # the URL in use ("" = the definition's)
    etag: str = ""
    last_modified: str = ""
    paused: bool = False
    retry_at_ms: int = 0
    last_poll_ms: int = 0
    line: str = ""
    polls: int = 0
    not_modified: int = 0
    sent_today: int = 0
    day: str = ""


def conditional_headers(status: SourceStatus) -> dict[str, str]:
    headers: dict[str, str] = {}
    if status.etag:
        headers["If-None-Match"] = status.etag
    if status.last_modified:
        headers["If-Modified-Since"] = status.last_modified
    return headers


def retry_after_sec(value: str | None, now_ms: int) -> int:
    """Seconds from a Retry-After header (delta seconds or an HTTP date), bounded."""
    if not value:
        return DEFAULT_RETRY_SEC
    value = value.strip()
    if value.isdigit():
        return min(int(value), MAX_RETRY_SEC)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return DEFAULT_RETRY_SEC
    if when is None:
        return DEFAULT_RETRY_SEC
    return max(0, min(int(when.timestamp() - now_ms / 1000), MAX_RETRY_SEC))


@dataclass(frozen=True)
class Outcome:
    action: Action
    status: SourceStatus


def judge(
    status: SourceStatus,
    code: int,
    headers: dict[str, str],
    now_ms: int,
    url: str,
) -> Outcome:
    """The action for an HTTP answer `code` with `headers` (lower-case names) to a poll of
    `url`, and the status after it (its `line` says it in one line)."""
    base = replace(status, last_poll_ms=now_ms, polls=status.polls + 1, retry_at_ms=0)
    if code == 304:
        line = f"304 not modified ({url})"
        return Outcome("unchanged", replace(base, not_modified=status.not_modified + 1, line=line))
    if code in (301, 308):
        target = headers.get("location", "")
        if not target:
            return Outcome("failed", replace(base, line=f"{code} without a Location ({url})"))
        line = f"{code} moved permanently: now {target}"
        return Outcome("moved", replace(base, url=target, etag="", last_modified="", line=line))
    if code == 410:
        line = f"410 gone: paused ({url})"
        return Outcome("gone", replace(base, paused=True, line=line))
    if code == 429 or (code == 503 and "retry-after" in headers):
        wait = retry_after_sec(headers.get("retry-after"), now_ms)
        line = f"{code} too many requests: next poll in {wait} s (Retry-After)"
        return Outcome("retry_later", replace(base, retry_at_ms=now_ms + wait * 1000, line=line))
    if 200 <= code < 300:
        return Outcome(
            "parse",
            replace(
                base,
                etag=headers.get("etag", ""),
                last_modified=headers.get("last-modified", ""),
                line=f"{code} ok ({url})",
            ),
        )
    return Outcome("failed", replace(base, line=f"{code} failed ({url})"))


def due(status: SourceStatus, every_sec: int, now_ms: int) -> bool:
    """Whether a poll is due now (never while paused or before a Retry-After time)."""
    if status.paused:
        return False
    if status.retry_at_ms:
        return now_ms >= status.retry_at_ms
    return now_ms >= status.last_poll_ms + every_sec * 1000


def due_slot(every_sec: int, now_ms: int) -> int:
    """The start of the poll period holding `now_ms` (ms): the `<due>` in `extsrc:<id>:<due>`,
    the same in every process polling the same source."""
    period = every_sec * 1000
    return now_ms - now_ms % period


def take_quota(status: SourceStatus, wanted: int, max_per_day: int, day: str) -> int:
    """How many of `wanted` notifications today's quota allows."""
    used = status.sent_today if status.day == day else 0
    return max(0, min(wanted, max_per_day - used))
