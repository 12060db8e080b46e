"""Who says a source's entry, and whether the speaking-first gate lets an immediate one through
(pure; docs/sources.md "One path per entry").

Every entry a poll records has exactly one owner, chosen by code when it is recorded and kept
in its seen record (`path`):

| the entry                    | notify    | speaking first | owner     |
|------------------------------|-----------|----------------|-----------|
| not to say (see below)       | any       | any            | none      |
| to say                       | digest    | any            | digest    |
| to say                       | immediate | any            | immediate |
| to say                       | off       | on             | speaker   |
| to say                       | off       | off            | none      |

Not to say: a first poll's backlog, `jarvis sources check`, no keyword or interest matched,
over `max_per_day`, a feed entry's update. `digest` is one message per source per poll window;
`immediate` goes through the gate per entry when speaking first is on, else one message per
entry at once; `speaker` is a `source_item` trigger: speaking first may bring it up.

Only `speaker` entries become speaking first's `source_item` triggers, so an entry a
notification says is never also a spoken-first message.

An immediate entry with speaking first on is one candidate for the gate (`core/proactive/gate`):
kind `news`, topic the source's id (a 👎 twice or "stop telling me about <source>" mutes it),
ratings code's (the person asked for these entries). Vetoes (quiet hours, a turn running, an
approval waiting, a muted topic, today's count, too soon after the last message) and the
learner's threshold apply as to any thought; one said makes the next of the same poll too soon.
What the gate holds back goes into one digest of that poll, said at the start of the source's
next poll period — after the quiet hours when they held it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from jarvis.core.proactive.gate import RATING_KEYS, Candidate, Policy, Situation, Verdict, decide
from jarvis.core.sources.definition import Notify

Owner = Literal["digest", "immediate", "speaker", "none"]
# The person asked for these entries: relevant, timely and new by construction.
IMMEDIATE_RATINGS = dict.fromkeys(RATING_KEYS, 5.0)


def owner(notify: Notify, *, to_say: bool, speaks_first: bool) -> Owner:
    """The one path that says a recorded entry (the table above)."""
    if not to_say:
        return "none"
    if notify == "off":
        return "speaker" if speaks_first else "none"
    return notify


@dataclass(frozen=True)
class Gated:
    """The gate's verdict on each entry of one immediate batch, in order."""

    verdicts: tuple[Verdict, ...]

    @property
    def spoken(self) -> list[int]:
        return [i for i, v in enumerate(self.verdicts) if v.speak]

    @property
    def held(self) -> list[int]:
        return [i for i, v in enumerate(self.verdicts) if not v.speak]


def gate_entries(topic: str, texts: list[str], situation: Situation, policy: Policy) -> Gated:
    """Each entry through the gate in order; an entry said counts for the next (today's count,
    the time since the last message). `not_new` does not apply: each entry is new by its seen
    keys, and a second one from the same source is governed by `too_soon` and `daily_max`."""
    now = replace(situation, recent_topics=frozenset())
    verdicts: list[Verdict] = []
    for text in texts:
        verdict = decide(Candidate("news", text, topic, IMMEDIATE_RATINGS), now, policy)
        verdicts.append(verdict)
        if verdict.speak:
            now = replace(now, today_count=now.today_count + 1, minutes_since_last=0.0)
    return Gated(tuple(verdicts))


def held_due_ms(slot_ms: int, every_ms: int, quiet_end_ms: int | None) -> int:
    """When the digest of held entries is said: the start of the poll period after `slot_ms`,
    or the end of the quiet hours (`quiet_end_ms`, given when they held an entry) if later."""
    return max(slot_ms + every_ms, quiet_end_ms or 0)


def quiet_end_ms(local: datetime, end_hour: int) -> int:
    """The next `end_hour`:00 after `local` (an aware datetime): when the quiet hours end."""
    end = local.replace(hour=end_hour, minute=0, second=0, microsecond=0)
    if end <= local:
        end += timedelta(days=1)
    return int(end.timestamp() * 1000)
