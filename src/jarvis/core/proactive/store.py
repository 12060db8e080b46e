"""Per agent: the feedback learner's counts, today's budget and what was said, in one small JSON
file (`<home>/proactive/<agent>.json`, 0600, written atomically). A file that does not parse is
never overwritten: the agent then starts from nothing in memory and the log says why."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from jarvis.common.atomic import atomic_write_text
from jarvis.common.logging import get_logger
from jarvis.core.proactive.learner import KindCounts, LearnerState, Move
from jarvis.core.proactive.surface import Unspoken

_log = get_logger("jarvis.proactive")
KEEP_SAID = 50  # the last messages kept (for feedback, "do it", recent topics and counts)


@dataclass
class Said:
    message_id: str
    user_id: str
    kind: str
    topic: str
    text: str
    at_ms: int
    feedback: str = ""


@dataclass
class AgentState:
    day: str = ""
    used_today: int = 0
    learner: LearnerState = field(default_factory=LearnerState)
    said: list[Said] = field(default_factory=list)
    events_ms: int = 0  # the newest goal / Focus step / source item already taken as a trigger
    unspoken: list[Unspoken] = field(default_factory=list)  # held back; may surface when relevant


def _kind(data: dict[str, Any]) -> KindCounts:
    if "counts" not in data:  # a file from before the answers were counted apart
        old = {
            "thumbs_up": int(data.get("accepted", 0)),
            "thumbs_down": int(data.get("rejected", 0)),
        }
        return KindCounts({k: v for k, v in old.items() if v})
    counts = {str(k): int(v) for k, v in dict(data["counts"]).items()}
    return KindCounts(counts, tuple(Move(**m) for m in data.get("moves", [])))


def _learner(data: dict[str, Any]) -> LearnerState:
    kinds = {str(k): _kind(dict(v)) for k, v in dict(data.get("kinds", {})).items()}
    return LearnerState(
        kinds,
        {str(k): int(v) for k, v in dict(data.get("dismissals", {})).items()},
        {str(k): int(v) for k, v in dict(data.get("muted_until_ms", {})).items()},
    )


def _decode(text: str) -> AgentState:
    data = json.loads(text)
    return AgentState(
        day=str(data.get("day", "")),
        used_today=int(data.get("used_today", 0)),
        learner=_learner(dict(data.get("learner", {}))),
        said=[Said(**item) for item in data.get("said", [])],
        events_ms=int(data.get("events_ms", 0)),
        unspoken=[Unspoken(**item) for item in data.get("unspoken", [])],
    )


class ProactiveStore:
    def __init__(self, home: Path) -> None:
        self.dir = home / "proactive"
        self._broken: set[str] = set()

    def path(self, agent_id: str) -> Path:
        return self.dir / f"{agent_id}.json"

    def load(self, agent_id: str) -> AgentState:
        path = self.path(agent_id)
        try:
            state = _decode(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return AgentState()
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            _log.warning("%s does not parse (%s): left as it is, not written over", path, exc)
            self._broken.add(agent_id)
            return AgentState()
        self._broken.discard(agent_id)
        return state

    def save(self, agent_id: str, state: AgentState) -> None:
        if agent_id in self._broken:
            return
        state.said = state.said[-KEEP_SAID:]
        text = json.dumps(asdict(state), ensure_ascii=False, indent=1)
        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.path(agent_id), text)
