"""`/remember <fact>`, `/remember reembed`, `/forget <id>`, `/wrong`, `/note <text>`: memory
from the chat.

`jarvis memory list|show|forget` prints the same listing from a shell. An 8-char id prefix is
enough everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from jarvis.common.i18n import Language, t
from jarvis.memory import MemoryItem, MemoryScope, MemoryService

_LISTED = 30


@dataclass(frozen=True)
class SlashScope:
    """Who typed the command, where: the session's last finished turn is `turn`."""

    agent_id: str
    user_id: str
    session_id: str
    turn: int
    lang: Language
    now_ms: int


async def memory_command(
    memory: MemoryService, scope: SlashScope, name: str, args: str
) -> str | None:
    """The reply to a memory command, or None when `name` is not one."""
    args = args.strip()
    lang = scope.lang
    if name == "/remember":
        if not args:
            return await listing(memory, scope.agent_id, scope.user_id, lang)
        if args == "reembed":
            if not memory.embeds:
                return t("memory.no_embedder", lang)
            count = await memory.reembed(scope.agent_id, scope.user_id)
            return t("memory.reembedded", lang, count=count)
        where = MemoryScope(scope.agent_id, scope.user_id, scope.session_id, scope.turn)
        item = await memory.remember(where, "fact", args, scope.now_ms)
        return t("memory.remembered", lang, id=item.id[:8], text=args)
    if name == "/forget":
        if not args:
            return t("memory.usage", lang)
        return await forget(memory, scope.agent_id, scope.user_id, args, lang)
    if name == "/wrong":
        return await mark_wrong(memory, scope, "/wrong")
    if name == "/note":
        if not args:
            return t("memory.usage", lang)
        where = MemoryScope(scope.agent_id, scope.user_id, scope.session_id, scope.turn)
        await memory.note(where, args)  # [작업 공유 메모리] of this session
        return t("memory.noted", lang, text=args)
    return None


async def mark_wrong(memory: MemoryService, scope: SlashScope, reason: str) -> str:
    """The session's last finished turn becomes a failed episode (to be reflected on)."""
    marked = scope.turn > 0 and await memory.mark_turn_failed(
        scope.agent_id, scope.user_id, scope.session_id, scope.turn, reason
    )
    if not marked:
        return t("memory.wrong_none", scope.lang)
    return t("memory.wrong_marked", scope.lang, turn=scope.turn)


async def listing(memory: MemoryService, agent_id: str, user_id: str, lang: Language) -> str:
    items = await memory.items(agent_id, user_id, limit=_LISTED)
    if not items:
        return t("memory.none", lang)
    return "\n".join(describe_item(item) for item in items)


def describe_item(item: MemoryItem, *, full: bool = False) -> str:
    when = datetime.fromtimestamp(item.ts_ms / 1000, UTC).strftime("%Y-%m-%d")
    text = item.text if full else _one_line(item.text)
    return f"{item.id[:8]}  {when}  {item.kind:<12} {text}"


def _one_line(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


async def show(
    memory: MemoryService, agent_id: str, user_id: str, prefix: str, lang: Language
) -> str:
    found = await _one(memory, agent_id, user_id, prefix, lang)
    if isinstance(found, str):
        return found
    lines = [describe_item(found, full=True)]
    if found.episode is not None:
        episode = found.episode
        calls = ", ".join(f"{c.name}({c.args})" for c in episode.tool_calls) or "-"
        lines.append(f"outcome={episode.outcome} kind={episode.kind} tools={calls}")
        if episode.metadata:
            lines.append(f"metadata={episode.metadata}")
        if episode.outcome == "success":
            lines.append(t("memory.recall.when", lang))
        else:
            lines.append(t("memory.recall.never", lang, outcome=episode.outcome))
    return "\n".join(lines)


async def forget(
    memory: MemoryService, agent_id: str, user_id: str, prefix: str, lang: Language
) -> str:
    found = await _one(memory, agent_id, user_id, prefix, lang)
    if isinstance(found, str):
        return found
    await memory.forget(agent_id, user_id, found.id)
    return t("memory.forgotten", lang, text=_one_line(found.text))


async def _one(
    memory: MemoryService, agent_id: str, user_id: str, prefix: str, lang: Language
) -> MemoryItem | str:
    matches = await memory.resolve(agent_id, user_id, prefix)
    if not matches:
        return t("memory.not_found", lang, id=prefix)
    if len(matches) > 1:
        return t("memory.ambiguous", lang, id=prefix)
    return matches[0]
