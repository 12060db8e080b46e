"""Pure judgements of EDM refinement: what to distil, and whether there is room (seed 000).

- Only successful turns of this agent that used a tool count; the task kind is the first tool.
- Every 3 successes of a kind make one generation; the file keeps the last generation handled,
  so a generation is distilled (one model call) at most once however often refinement runs.
- The next generation edits an unapproved draft, or waits beside an approved procedure as its
  revision. A new kind gets a draft only while the agent has fewer than 30 procedures + drafts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from jarvis.memory.episodes import Episode

SUCCESSES_PER_GENERATION = 3
CAP_PER_AGENT = 30

Action = Literal["new_draft", "edit_draft", "attach_revision", "over_cap"]


@dataclass(frozen=True)
class KindFile:
    """What refinement needs to know about a kind's existing file."""

    status: str
    generation: int


@dataclass(frozen=True)
class LearnStep:
    kind: str
    generation: int
    action: Action


def counts_success(episode: Episode, agent: str) -> bool:
    return episode.agent_id == agent and episode.outcome == "success" and bool(episode.tool_calls)


def success_counts(episodes: list[Episode], agent: str) -> Counter[str]:
    """Successes per task kind, in the order kinds first succeeded."""
    return Counter(e.kind for e in episodes if counts_success(e, agent))


def generation_of(successes: int) -> int:
    return successes // SUCCESSES_PER_GENERATION


def plan_refinement(
    counts: Counter[str], files: dict[str, KindFile], held: int, cap: int = CAP_PER_AGENT
) -> list[LearnStep]:
    """The distillations due now. `held` is the agent's procedures + drafts already on disk."""
    steps: list[LearnStep] = []
    for kind, successes in counts.items():
        generation = generation_of(successes)
        if generation == 0:
            continue
        existing = files.get(kind)
        if existing is not None:
            if generation <= existing.generation:
                continue  # handled (or rejected) already: never distilled twice
            action: Action = "attach_revision" if existing.status == "approved" else "edit_draft"
            steps.append(LearnStep(kind, generation, action))
        elif held < cap:
            held += 1
            steps.append(LearnStep(kind, generation, "new_draft"))
        else:
            steps.append(LearnStep(kind, generation, "over_cap"))
    return steps


def room_for_new(held: int, cap: int = CAP_PER_AGENT) -> bool:
    return held < cap
