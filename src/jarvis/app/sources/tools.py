"""The `watch_source` tool: the model proposes a feed or page to watch (docs/sources.md); the
person approves the call (the gate always asks: `requires_approval`, and the tool is in
`no_standing_consent`, so no rule approves it). The source is then written **off**: fetching is
a separate pre-approval of web_fetch to its host that only its owner gives (the HUD's Sources
card, `jarvis sources grant`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.app.sources.manage import add_source
from jarvis.common.clock import new_id
from jarvis.common.i18n import Language, t
from jarvis.core.tools.base import Tool, ToolArgumentError, ToolEnv


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].strip("-")
    return slug or f"source-{new_id()[:6].lower()}"


class WatchSourceTool(Tool):
    name: ClassVar[str] = "watch_source"
    description: ClassVar[str] = (
        "Propose watching a feed (RSS, Atom, JSON Feed) or a web page for new entries; what "
        "is new and matches the keywords is told to the user once (the user approves the "
        "proposal, and the owner then pre-approves fetching from its host)."
    )
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "url": {"type": "string"},
            "name": {"type": "string", "description": "Short id, a-z 0-9 -"},
            "every": {"type": "string", "description": "'30 minutes', '2 hours', '1 day'"},
            "match": {"type": "array", "items": {"type": "string"}},
            "notify": {"type": "string", "enum": ["digest", "immediate", "off"]},
            "interests": {
                "type": "boolean",
                "description": "Also match what the user model knows the user is interested in",
            },
        },
        "required": ["url"],
    }
    requires_approval = True  # a standing action: the person approves each proposal

    def __init__(self, home: Path, lang: Language) -> None:
        self.home = home
        self.lang = lang

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        url = str(args.get("url", "")).strip()
        name = _slug(str(args.get("name") or url.split("//", 1)[-1]))
        fields: dict[str, Any] = {"owner": env.call.user_id, "agent": env.call.agent_id}
        if args.get("every"):
            fields["every"] = str(args["every"])
        if args.get("notify"):
            fields["notify"] = str(args["notify"])
        fields["interests"] = bool(args.get("interests"))
        fields["match"] = [str(m).strip() for m in args.get("match") or [] if str(m).strip()]
        try:
            source = add_source(self.home, name, url, **fields)
        except ValueError as exc:
            raise ToolArgumentError(str(exc)) from None
        line = t(
            "sources.tool_added", self.lang, source=source.id, url=source.url, host=source.host
        )
        return ToolResult(content=line, details={"source": source.id, "enabled": False})
