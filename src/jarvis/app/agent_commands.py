"""`/agent`: the top-level agents, the current one marked (both front ends use it)."""

from __future__ import annotations

from jarvis.app.agent_registry import AgentRegistry
from jarvis.common.i18n import Language, t


def agent_listing(registry: AgentRegistry, current: str, lang: Language) -> str:
    lines = [t("agents.list_header", lang, current=current)]
    for profile in registry.profiles():
        mark = "*" if profile.agent_id == current else " "
        lines.append(f"{mark} {profile.agent_id:<12} {profile.name}")
    return "\n".join(lines)


def unknown_agent(registry: AgentRegistry, name: str, lang: Language) -> str:
    return t("agents.unknown_agent", lang, name=name, known=", ".join(registry.ids()))
