"""The offline demo's answers to Focus prompts: a six-step plan, and per step findings that
cite pages (some cited again, in another spelling), always the same for the same step — so a
crash test can compare a resumed task's files with an uninterrupted run's."""

from __future__ import annotations

import re

PLAN_MARKER = "[focus-plan]"
_STEP = re.compile(r"\[focus-step (\d+)/(\d+)\]")
DEMO_STEPS = ["scope", "search", "read", "compare", "analyse", "report"]


def demo_focus(prompt: str) -> str | None:
    if prompt.lstrip().startswith(PLAN_MARKER):
        return '["' + '", "'.join(DEMO_STEPS) + '"]'
    match = _STEP.match(prompt.lstrip())
    if match is None:
        return None
    n = int(match.group(1))
    lines = [
        f"- finding {n}.1 from https://example.org/page/{n}",
        f"- finding {n}.2 citing https://EXAMPLE.org:443/shared/?utm_source=x&b=2&a=1#top",
    ]
    if n > 1:
        lines.append(f"- finding {n}.3 again https://example.org/page/{n - 1}/")
    return "\n".join(lines)
