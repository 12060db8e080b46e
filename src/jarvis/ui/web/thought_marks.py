"""What the HUD's "thoughts" view in ACTIVITY showed, kept as screen marks so a reload shows it
again (screen_marks.py): the router's route, the inner thought's frame and its end (session
events), and each speaking-first pass the window was sent (`proactive_pass`, from the hub).

A mark is `{"kind": "thought", "event": …}` — the event as the page got it, bounded: strings cut
at `MAX_CHARS`, at most `MAX_CANDIDATES` candidates. Marks are never part of the session history
and never reach the model. Pure: table-tested.
"""

from __future__ import annotations

from typing import Any

THOUGHT_EVENTS = frozenset({"thought_route", "inner_thought", "thought_end", "proactive_pass"})
MAX_CHARS = 400
MAX_CANDIDATES = 3
_KEEP: dict[str, tuple[str, ...]] = {
    "thought_route": ("think", "p_think", "reason", "engine"),
    "inner_thought": ("interpretation", "decision", "confidence", "frame"),
    "thought_end": ("ok", "reason"),
    "proactive_pass": ("pass_id", "agent_id", "trigger", "reason", "at_ms"),
}
_CANDIDATE = ("kind", "topic", "text", "score", "spoken", "why")


def _value(value: Any) -> Any:
    if isinstance(value, str):
        return value[:MAX_CHARS]
    return value if isinstance(value, bool | int | float) or value is None else str(value)[:80]


def thought_mark(event: dict[str, Any]) -> dict[str, Any] | None:
    """The mark one event leaves in the thoughts view (None for every other event)."""
    kind = event.get("type")
    if kind not in _KEEP:
        return None
    kept: dict[str, Any] = {"type": kind}
    kept.update({k: _value(event[k]) for k in _KEEP[kind] if k in event})
    if kind == "proactive_pass":
        candidates = event.get("candidates")
        kept["candidates"] = [
            {k: _value(c[k]) for k in _CANDIDATE if k in c}
            for c in (candidates if isinstance(candidates, list) else [])[:MAX_CANDIDATES]
            if isinstance(c, dict)
        ]
    return {"kind": "thought", "event": kept}
