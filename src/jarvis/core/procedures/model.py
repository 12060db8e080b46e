"""What a learned procedure is: a markdown file with YAML frontmatter (seed 000 example)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

Status = Literal["draft", "approved", "rejected"]
Origin = Literal["distill", "reflect", "learn"]
MAIN_AGENT = "main"  # procedures written before agents were named belong to JARVIS (main)
PATTERN_PREFIX = "pattern-"
_SLUG = re.compile(r"[^a-z0-9-]+")


class PlanStep(BaseModel):
    """One tool call of a stored plan; `{{input}}` in a string value is filled at run time."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class Revision(BaseModel):
    """A newer body waiting for approval beside an approved procedure ("개정 초안")."""

    generation: int = 0
    origin: Origin = "distill"
    description: str = ""
    body: str = ""
    tools: list[str] = Field(default_factory=list)
    inputs: list[str] = Field(default_factory=list)
    plan: list[PlanStep] = Field(default_factory=list)


class Procedure(BaseModel):
    name: str
    description: str = ""
    status: Status = "draft"
    source: str = ""
    agent: str = MAIN_AGENT
    kind: str = ""
    generation: int = 0
    tools: list[str] = Field(default_factory=list)
    parameters: str = ""
    inputs: list[str] = Field(default_factory=list)
    plan: list[PlanStep] = Field(default_factory=list)
    revision: Revision | None = None
    # Revisions a newer one displaced before anyone decided (▲ seed: it silently overwrote).
    displaced: list[Revision] = Field(default_factory=list)
    # Task patterns waiting for approval (pattern-<name> files).
    when: str = ""
    keywords: list[str] = Field(default_factory=list)
    body: str = ""

    @property
    def is_pattern(self) -> bool:
        return self.name.startswith(PATTERN_PREFIX)

    @property
    def tool_name(self) -> str:
        return "procedure_" + self.name.replace("-", "_")

    def with_revision_applied(self) -> Procedure:
        """Approve the waiting revision: name and source stay, the body becomes the revision."""
        rev = self.revision
        if rev is None:
            return self
        return self.model_copy(
            update={
                "description": rev.description or self.description,
                "body": rev.body,
                "tools": rev.tools or self.tools,
                "inputs": rev.inputs,
                "plan": rev.plan,
                "revision": None,
            }
        )


def edm_source(agent: str, kind: str) -> str:
    return f"edm:{agent}:{kind}"


def parse_edm_source(source: str) -> tuple[str, str, int | None] | None:
    """(agent, kind, generation) of `edm:<agent>:<kind>[:<gen>]`; None for other sources."""
    parts = source.split(":")
    if len(parts) < 3 or parts[0] != "edm":
        return None
    if len(parts) >= 4 and parts[-1].isdigit():
        return parts[1], ":".join(parts[2:-1]), int(parts[-1])
    return parts[1], ":".join(parts[2:]), None


def slug(text: str, fallback: str = "procedure") -> str:
    cleaned = _SLUG.sub("-", text.lower()).strip("-")
    return cleaned[:60].strip("-") or fallback
