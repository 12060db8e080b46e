"""The user model's settings (`user_model:` in config.yaml, `JARVIS_USER_MODEL__*`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class UserModelSettings(BaseModel):
    enabled: bool = Field(
        True, description="Keep ~/.jarvis/user_model.json and show its active facts to the model."
    )
    extract: bool = Field(
        True, description="Take facts the person states about themselves (guarded, no model call)."
    )
    infer: bool = Field(
        False,
        description="Also take facts read between the lines (tentative until seen in two "
        "sessions; the same guard).",
    )
    max_facts: int = Field(12, ge=0, le=50, description="Most facts in the [사용자] section.")
