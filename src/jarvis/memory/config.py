"""The memory layer's own settings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from jarvis.memory.window import carried_turns, first_shown_turn
from jarvis.model_layer.embeddings import EmbeddingSettings


class MemorySettings(BaseModel):
    enabled: bool = Field(True, description="Inject recalled memory and record turn episodes.")
    recent_turns: int = Field(
        3, ge=0, le=50, description="Earlier turns the model sees at least (the seed's 3)."
    )
    history_block: int = Field(
        5,
        ge=1,
        le=50,
        description=(
            "Earlier turns dropped at once when the window is full: the model sees "
            "recent_turns to recent_turns + history_block - 1 earlier turns, and the history "
            "stays append-only between cuts (a model server's prompt cache reuses it). "
            "1: a window that slides every turn."
        ),
    )
    cut_keeps: Literal["lines", "turns"] = Field(
        "lines",
        description=(
            "What a cut of the history window keeps of the last recent_turns turns: one line "
            "each (the person's words, the tools, the answer; a prompt cache then re-reads a "
            "few lines at a cut) or the whole turns (it re-reads them all)."
        ),
    )
    semantic: bool = Field(
        True,
        description="Keep facts the person states as semantic memory (the user model's guard).",
    )
    recall_limit: int = Field(3, ge=0, le=20, description="Long-term items recalled per turn.")
    # Shared with open loops' same-loop check (seed 001: one setting turns both on).
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)

    def first_shown_turn(self, turn: int) -> int:
        """The oldest earlier turn the model sees verbatim with `turn` (`memory/window.py`)."""
        return first_shown_turn(turn, self.recent_turns, self.history_block)

    def carried_turns(self, turn: int) -> range:
        """The earlier turns shown as one line each with `turn` (`memory/window.py`); the rest
        of the window, up to `turn - 1`, is shown whole."""
        if self.cut_keeps == "turns":
            first = self.first_shown_turn(turn)
            return range(first, first)
        return carried_turns(turn, self.recent_turns, self.history_block)

    def cut_carries(self, turn: int) -> int:
        """How many carried lines are new with `turn`: on the turn of a cut (no earlier turn
        shown whole), all of them; else 0."""
        carried = self.carried_turns(turn)
        return len(carried) if carried and carried.stop == turn else 0
