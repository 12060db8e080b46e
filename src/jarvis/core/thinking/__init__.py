"""The thinking step of a turn (router → effort / inner thought), wired by the app layer."""

from jarvis.core.thinking.turn import (
    EngineMode,
    ThinkingPlan,
    TurnScope,
    TurnThinking,
    runs_thought,
)

__all__ = ["EngineMode", "ThinkingPlan", "TurnScope", "TurnThinking", "runs_thought"]
