"""Open-loop settings (`JARVIS_OPENLOOP__*`), shared by the pure rules and the service."""

from __future__ import annotations

from pydantic import BaseModel, Field


class OpenLoopConfig(BaseModel):
    expire_after_sec: int = Field(6 * 3600, ge=0, description="Expire this long after the due.")
    max_age_sec: int = Field(7 * 86400, ge=0, description="Expire loops without a due this old.")
    cosine_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description=(
            "Same-loop cosine threshold. None: the embedder setting's calibrated threshold "
            "(`JARVIS_MEMORY__EMBEDDING__LOOP_THRESHOLD` or the built-in calibration); an "
            "embedder with neither only names candidates, its cosine never merges."
        ),
    )
    span_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description=(
            "Cosine at which the embedder's placing of two differing spans on their own explains "
            "them (issue 30). None: the embedder's calibration; uncalibrated: a cosine never "
            "merges a soft difference."
        ),
    )
    jaccard_threshold: float = Field(0.4, ge=0, le=1, description="Char-bigram Jaccard.")
    contain_min_chars: int = Field(6, ge=1, description="Shortest side that may be contained.")
    grounded_evidence_ratio: float = Field(0.5, ge=0, le=1)
    grounded_description_ratio: float = Field(0.2, ge=0, le=1)
    dismissal_overlap: float = Field(0.5, ge=0, le=1, description="Shorter-side bigram overlap.")
