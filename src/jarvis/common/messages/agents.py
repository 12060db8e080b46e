"""Lines of team agents, sub-agents and orchestration (`/agent`, `/orchestrate`, their tools)."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "agents.too_deep": {
        "ko": "위임 깊이 한도({limit})에 닿아 더 맡길 수 없습니다.",
        "en": "delegation depth limit ({limit}) reached; cannot delegate further.",
    },
    "agents.unknown_agent": {
        "ko": "그런 에이전트가 없습니다: {name} (있는 에이전트: {known})",
        "en": "no such agent: {name} (known: {known})",
    },
    "agents.no_subagents": {
        "ko": "~/.jarvis/agents/ 에 선언한 서브 에이전트가 없습니다.",
        "en": "no sub-agents are declared in ~/.jarvis/agents/.",
    },
    "agents.budget": {
        "ko": "모델 호출 예산({limit}회)을 다 써서 멈췄습니다. 지금까지의 결과:\n{text}",
        "en": "stopped: the budget of {limit} model calls is used up. Results so far:\n{text}",
    },
    "agents.aborted": {"ko": "중단했습니다.", "en": "aborted."},
    "agents.failed": {
        "ko": "{agent} 가 답하지 못했습니다: {reason}",
        "en": "{agent} could not answer: {reason}",
    },
    "agents.ask_self": {
        "ko": "자기 자신이나 이미 묻고 있는 에이전트({name})에게는 물을 수 없습니다.",
        "en": "cannot ask itself or an agent already asking ({name}).",
    },
    "agents.orchestrate_usage": {
        "ko": "사용법: /orchestrate <pattern[,pattern…]> <작업> (pattern: {patterns})",
        "en": "usage: /orchestrate <pattern[,pattern…]> <task> (patterns: {patterns})",
    },
    "agents.list_header": {"ko": "에이전트 (지금: {current})", "en": "agents (now: {current})"},
    "agents.switched": {
        "ko": "{name}({agent}) 의 새 세션 {session}",
        "en": "new session {session} with {name} ({agent})",
    },
    "agents.ask_agent_description": {
        "ko": "다른 최상위 에이전트에게 질문하고 답을 받는다. 그 에이전트는 자기 도구와 규칙으로 "
        "일한다. 에이전트: {agents}",
        "en": "Ask another top-level agent a question and get its answer; it works with its own "
        "tools and rules. Agents: {agents}",
    },
    "agents.orchestrate_description": {
        "ko": "선언된 서브 에이전트들에게 작업을 맡긴다. pattern: supervisor(감독자가 단계마다 "
        "위임), hierarchical(레벨 순), market(능력이 가장 맞는 하나), blackboard(전원 병렬, "
        "결과 취합); 쉼표로 이으면 파이프라인. 에이전트: {agents}",
        "en": "Hand a task to the declared sub-agents. pattern: supervisor (a supervisor delegates "
        "step by step), hierarchical (by level), market (the best-matching one), blackboard (all "
        "at once, aggregated); join with commas for a pipeline. Agents: {agents}",
    },
}
