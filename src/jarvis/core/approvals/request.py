"""What an approval request shows: every argument key, values shortened server-side (except
the keys a tool asks to show whole, such as bash's `command`: what the human approves must be
all of what runs)."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, Field

AnswerOption = Literal["allow", "always", "deny"]
VALUE_PREVIEW_CHARS = 300
# A value shown whole is still bounded: `bash -c` cannot take more than the kernel's limit for
# one argument (MAX_ARG_STRLEN, 128 KiB), so nothing longer can run.
WHOLE_VALUE_CHARS = 131_072
_QUERY_PREVIEW_CHARS = 40


class ArgPreview(BaseModel):
    key: str
    value: str
    original_length: int
    shortened: bool


class ApprovalRequest(BaseModel):
    """The data a human sees; the UI renders exactly these options."""

    type: Literal["approval_request"] = "approval_request"
    id: str
    session_id: str
    agent_id: str
    # Who asks, outermost first (["main", "planner"]: JARVIS's sub-agent planner).
    agent_path: list[str] = Field(default_factory=list)
    user_id: str
    turn: int
    tool_call_id: str
    tool: str
    source: str
    args: list[ArgPreview]
    options: list[AnswerOption]
    # The exact rule ALWAYS would save (None when ALWAYS is not offered).
    pattern: str | None = None
    irreversible: bool = False
    # Why the human should look twice (codes the UI explains): "compound" (several commands or
    # shell constructs), "destructive" (deletes/overwrites), "outside_workspace", "control_chars".
    warnings: list[str] = Field(default_factory=list)
    # Why ALWAYS is not offered, as a code the UI explains; None when it is offered.
    no_always_reason: str | None = None
    # For file edits: the unified diff of what will change (bounded; None when unknown).
    diff: str | None = None
    created_ms: int
    expires_ms: int
    timeout_sec: float = Field(0, description="Seconds the human has to answer.")


def preview_args(
    args: dict[str, Any], limit: int = VALUE_PREVIEW_CHARS, *, whole: Collection[str] = ()
) -> list[ArgPreview]:
    """Every key; values cut at `limit`, those of `whole` keys at `WHOLE_VALUE_CHARS`."""
    return [
        _preview(key, value, WHOLE_VALUE_CHARS if key in whole else limit)
        for key, value in args.items()
    ]


def _preview(key: str, value: Any, limit: int) -> ArgPreview:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    shown = _shorten_url(text) if _is_url(text) else text
    if len(shown) > limit:
        shown = shown[:limit]
    return ArgPreview(key=key, value=shown, original_length=len(text), shortened=shown != text)


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://")) and " " not in text and "\n" not in text


def _shorten_url(url: str) -> str:
    """Keep scheme, host and path whole (where it goes is what matters); cut the query."""
    parts = urlsplit(url)
    query = parts.query
    if len(query) > _QUERY_PREVIEW_CHARS:
        query = query[:_QUERY_PREVIEW_CHARS] + "…"
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))
