"""When an open loop with a due time reminds the person (pure).

Default: one hour before and at the due time (`JARVIS_SCHEDULER__REMIND_BEFORE_SEC`). Each
reminder has a stable key `<loop id>:<offset>`, the engine's idempotency key: a reminder fires
once across processes and restarts. A loop that is no longer open never reminds; a reminder
whose moment passed long ago (the loop was made after it, or the process was down) is skipped,
except the one at the due time, which still fires once within the grace window.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_OFFSETS_SEC: tuple[int, ...] = (3600, 0)
DEFAULT_GRACE_MS = 15 * 60 * 1000


@dataclass(frozen=True)
class Reminder:
    loop_id: str
    offset_sec: int  # before the due time; 0 is "at the due time"
    at_ms: int
    due_ms: int

    @property
    def key(self) -> str:
        return f"{self.loop_id}:{self.offset_sec}"


def reminder_times(
    loop_id: str, due_ms: int, offsets_sec: tuple[int, ...] = DEFAULT_OFFSETS_SEC
) -> list[Reminder]:
    """Every reminder of one loop, earliest first (duplicates of one offset removed)."""
    unique = sorted({max(0, o) for o in offsets_sec}, reverse=True)
    return [Reminder(loop_id, o, due_ms - o * 1000, due_ms) for o in unique]


def reminders_due(
    loop_id: str,
    status: str,
    due_ms: int | None,
    created_ms: int,
    now_ms: int,
    offsets_sec: tuple[int, ...] = DEFAULT_OFFSETS_SEC,
    grace_ms: int = DEFAULT_GRACE_MS,
) -> list[Reminder]:
    """The reminders of this loop to deliver now (each is then started once by key)."""
    if status != "open" or due_ms is None:
        return []
    due: list[Reminder] = []
    for reminder in reminder_times(loop_id, due_ms, offsets_sec):
        if reminder.at_ms > now_ms:
            continue
        if reminder.at_ms < created_ms and reminder.offset_sec > 0:
            continue  # the promise was made after this moment: "1 h before" would be a lie
        if now_ms - reminder.at_ms > grace_ms:
            continue  # long past: a stale reminder is noise
        due.append(reminder)
    # When several are due at once (a restart), only the latest one says anything.
    return due[-1:]
