"""Which tools a sub-agent gets: decided by code from its definition, never by the parent model
(seed 002: "서브에이전트 도구를 부모 모델이 고르면 승인이 빠진다, 코드가 정한다")."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

ORCHESTRATION_TOOLS = frozenset({"orchestrate", "ask_agent"})
DEFAULT_MAX_DEPTH = 2


def is_orchestration_tool(name: str) -> bool:
    return name in ORCHESTRATION_TOOLS or name.startswith("agent_")


def subagent_tools(
    declared: Sequence[str],
    available: Collection[str],
    *,
    depth: int,
    max_depth: int,
    unattended: bool,
    requires_approval: Callable[[str], bool],
    never: Collection[str] = (),
) -> list[str]:
    """The declared tools that exist, minus: tools the top-level agent may never use, tools
    that would start another level past `max_depth` (a sub-agent at `depth` runs at that
    level), and — when nobody watches — every tool that would need a human's approval."""
    chosen: list[str] = []
    for name in declared:
        if name not in available or name in never or name in chosen:
            continue
        if is_orchestration_tool(name) and depth >= max_depth:
            continue
        if unattended and requires_approval(name):
            continue
        chosen.append(name)
    return chosen
