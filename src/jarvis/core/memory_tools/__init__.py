"""Tools that write and read the calling agent's long-term memory.

- `remember_task_pattern`: a work method the person teaches becomes this agent's task pattern
  (shown under [작업 패턴] every turn).
- `recall_episodes`: this agent's past turn episodes, filtered by kind (first tool), outcome,
  time and text — what is older than the recent turns the model sees.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.common.clock import Clock
from jarvis.common.i18n import Language, t
from jarvis.core.tools.base import Tool, ToolEnv
from jarvis.core.tools.builtins._args import object_schema
from jarvis.core.tools.builtins._tool import BuiltinTool, failure
from jarvis.memory import MemoryScope, MemoryService
from jarvis.memory.episodes import Episode
from jarvis.memory.recall import EpisodeFilter

_HOUR_MS = 3600 * 1000
_MAX_EPISODES = 20


class RememberTaskPatternTool(BuiltinTool):
    name: ClassVar[str] = "remember_task_pattern"
    description: ClassVar[str] = (
        "Save a work method the user taught you (how they want a kind of task done) as your "
        "task pattern; it is shown to you in every later turn."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        {"pattern": {"type": "string", "description": "The method, as an instruction."}},
        {"when": {"type": "string", "description": "When it applies (the kind of task)."}},
    )

    def __init__(self, memory: MemoryService, clock: Clock, lang: Language) -> None:
        self._memory, self._clock, self._lang = memory, clock, lang

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        pattern = str(args.get("pattern") or "").strip()
        if not pattern:
            return failure(t("memory.pattern_empty", env.call.speaks(self._lang)))
        when = str(args.get("when") or "").strip()
        text = f"{when}: {pattern}" if when else pattern
        call = env.call
        scope = MemoryScope(call.agent_id, call.user_id, call.session_id, call.turn)
        await self._memory.remember(scope, "task_pattern", text, self._clock.now_ms())
        return ToolResult(content=t("memory.pattern_saved", env.call.speaks(self._lang), text=text))


class RecallEpisodesTool(BuiltinTool):
    name: ClassVar[str] = "recall_episodes"
    description: ClassVar[str] = (
        "Look up your own past turns (older than the conversation you see): what was asked, "
        "answered and which tools ran. Filter by task kind (the first tool used, or 'chat'), "
        "outcome (success/failure/denied/aborted), time and text."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        {},
        {
            "kind": {"type": "string"},
            "outcome": {"type": "string", "enum": ["success", "failure", "denied", "aborted"]},
            "since_hours": {"type": "number", "description": "Only the last N hours."},
            "text": {"type": "string", "description": "Words the request or answer contains."},
            "limit": {"type": "integer", "minimum": 1, "maximum": _MAX_EPISODES},
        },
    )

    def __init__(self, memory: MemoryService, clock: Clock, lang: Language) -> None:
        self._memory, self._clock, self._lang = memory, clock, lang

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        since = args.get("since_hours")
        wanted = EpisodeFilter(
            kind=args.get("kind") or None,
            outcome=args.get("outcome") or None,
            since_ms=None if since is None else self._clock.now_ms() - int(since * _HOUR_MS),
            text=args.get("text") or None,
            limit=min(int(args.get("limit") or 10), _MAX_EPISODES),
        )
        found = await self._memory.recall_episodes(env.call.agent_id, env.call.user_id, wanted)
        if not found:
            return ToolResult(content=t("memory.episodes_none", env.call.speaks(self._lang)))
        return ToolResult(content="\n\n".join(describe_episode(e) for e in found))


def describe_episode(episode: Episode) -> str:
    when = datetime.fromtimestamp(episode.ts_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
    calls = ", ".join(call.name for call in episode.tool_calls) or "-"
    return (
        f"[{when}] kind={episode.kind} outcome={episode.outcome} tools={calls}\n"
        f"Q: {episode.utterance}\nA: {episode.answer}"
    )


# Seed 000: "memory tools every agent uses" — an agent's own `tools:` list never drops them
# (its `boundaries.never` still can).
EVERY_AGENT_TOOLS: frozenset[str] = frozenset({"remember_task_pattern", "recall_episodes"})


def memory_tools(memory: MemoryService, clock: Clock, lang: Language) -> list[Tool]:
    return [RememberTaskPatternTool(memory, clock, lang), RecallEpisodesTool(memory, clock, lang)]
