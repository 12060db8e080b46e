"""The memory layer's own settings."""

from __future__ import annotations

from pydantic import BaseModel, Field

from jarvis.model_layer.embeddings import EmbeddingSettings


class MemorySettings(BaseModel):
    enabled: bool = Field(True, description="Inject recalled memory and record turn episodes.")
    recent_turns: int = Field(3, ge=0, le=50, description="Turns of history the model sees.")
    semantic: bool = Field(
        True,
        description="Keep facts the person states as semantic memory (the user model's guard).",
    )
    recall_limit: int = Field(3, ge=0, le=20, description="Long-term items recalled per turn.")
    # Shared with open loops' same-loop check (seed 001: one setting turns both on).
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
