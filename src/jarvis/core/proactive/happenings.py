"""Speaking first's event triggers (pure): a finished goal, a finished Focus step, a new item
from an external source. The edge (`app/proactive/happenings.py`) reads them from the goal files,
the Focus tasks and the sources' seen-file; here code decides which are new and groups them into
one trigger per (agent, person, kind). Each happening counts once: the speaker keeps the newest
time it has taken (`events_ms`, per agent, in its state file)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

HappeningKind = Literal["goal_done", "focus_step", "source_item"]
KINDS: tuple[HappeningKind, ...] = ("goal_done", "focus_step", "source_item")
MAX_PER_TRIGGER = 5  # the newest few of one kind go into one reflection prompt


@dataclass(frozen=True)
class Happening:
    kind: HappeningKind
    agent_id: str
    user_id: str
    key: str  # stable: goal:<id>, focus:<task>:<step>:<attempt>, source:<source>:<content>
    at_ms: int
    text: str  # one short line for the reflection prompt


Group = tuple[str, str, HappeningKind]  # (agent, person, kind)


def fresh(
    happenings: list[Happening], since_ms: dict[str, int], agents: set[str]
) -> dict[Group, list[Happening]]:
    """The happenings after each agent's cursor, for agents that speak first, grouped per
    (agent, person, kind) oldest first, the newest `MAX_PER_TRIGGER` of a group kept."""
    groups: dict[Group, list[Happening]] = {}
    seen: set[str] = set()
    for item in sorted(happenings, key=lambda h: (h.at_ms, h.key)):
        if item.agent_id not in agents or item.at_ms <= since_ms.get(item.agent_id, 0):
            continue
        if item.key in seen:
            continue
        seen.add(item.key)
        groups.setdefault((item.agent_id, item.user_id, item.kind), []).append(item)
    return {group: items[-MAX_PER_TRIGGER:] for group, items in sorted(groups.items())}


def cursor(happenings: list[Happening], agent_id: str, since_ms: int) -> int:
    """The agent's cursor after taking these happenings (never moves back)."""
    return max([since_ms, *(h.at_ms for h in happenings if h.agent_id == agent_id)])
