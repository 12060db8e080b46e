"""The thinking step of a turn (router → effort / inner thought, fillers), wired by the app."""

from jarvis.core.thinking.fillers import WaitTracker, choose_filler
from jarvis.core.thinking.turn import (
    EngineMode,
    Fillers,
    ThinkingPlan,
    TurnHost,
    TurnScope,
    TurnThinking,
    runs_thought,
)

__all__ = [
    "EngineMode",
    "Fillers",
    "ThinkingPlan",
    "TurnHost",
    "TurnScope",
    "TurnThinking",
    "WaitTracker",
    "choose_filler",
    "runs_thought",
]
