"""The model calls of procedure learning: distillation and reflection, parsed strictly.

A model is any `TextModel` (system, prompt) → text or None; `provider_model` makes one from a
provider, so tests and experiments pass the scripted model and production the configured one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from jarvis.core.procedures.model import PlanStep
from jarvis.memory.episodes import Episode
from jarvis.model_layer.events import ProviderError, TextDelta
from jarvis.model_layer.messages import LLMContext, UserMessage
from jarvis.model_layer.provider import Provider

TextModel = Callable[[str, str], Awaitable[str | None]]
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w-]*)\s*\}\}")
_SYSTEM = "You turn an assistant's successful work into a reusable procedure. Reply with JSON only."


def provider_model(provider: Provider, model: str) -> TextModel:
    async def complete(system: str, prompt: str) -> str | None:
        context = LLMContext(system_prompt=system, messages=[UserMessage(content=prompt)])
        parts: list[str] = []
        async for event in provider.stream(model, context):
            if isinstance(event, TextDelta):
                parts.append(event.delta)
            elif isinstance(event, ProviderError):
                return None
        return "".join(parts)

    return complete


class Distilled(BaseModel):
    name: str
    description: str = ""
    body: str
    parameters: str = ""
    inputs: list[str] = Field(default_factory=list)
    plan: list[PlanStep] = Field(default_factory=list)


def first_json_object(text: str) -> dict[str, Any] | None:
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def parse_distilled(text: str | None) -> Distilled | None:
    data = first_json_object(text or "")
    if data is None:
        return None
    try:
        return Distilled.model_validate(data)
    except ValidationError:
        return None


def valid_plan(plan: list[PlanStep], tools: set[str], inputs: list[str]) -> list[PlanStep]:
    """The plan if it uses only the learned tools and declared inputs, else none (seed 000)."""
    declared = set(inputs)
    for step in plan:
        if step.tool not in tools:
            return []
        used = {m.group(1) for v in step.args.values() for m in _PLACEHOLDER.finditer(str(v))}
        if not used <= declared:
            return []
    return plan


def fill_plan(plan: list[PlanStep], values: dict[str, Any]) -> list[PlanStep]:
    """The plan with `{{input}}` replaced by the given values (a whole-value placeholder keeps
    the value's type)."""
    filled: list[PlanStep] = []
    for step in plan:
        args: dict[str, Any] = {}
        for key, value in step.args.items():
            if isinstance(value, str):
                whole = _PLACEHOLDER.fullmatch(value.strip())
                if whole:
                    args[key] = values[whole.group(1)]
                    continue
                value = _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), value)
            args[key] = value
        filled.append(PlanStep(tool=step.tool, args=args))
    return filled


def distill_prompt(kind: str, episodes: list[Episode], current_body: str | None) -> str:
    lines = [
        f"Task kind: {kind}. These turns succeeded. Write one reusable procedure.",
        "JSON keys: name (kebab-case English), description, body (numbered steps, may use "
        '"{{args}}" for the request), parameters, inputs (names), plan (list of '
        '{"tool": name, "args": {...}} using only the tools below and "{{input}}" placeholders '
        "for inputs).",
    ]
    if current_body:
        lines += ["Improve this current version:", current_body]
    for number, episode in enumerate(episodes, start=1):
        calls = "; ".join(
            f"{c.name} {json.dumps(c.args, ensure_ascii=False)}" for c in episode.tool_calls
        )
        lines += [f"[{number}] request: {episode.utterance}", f"tool calls: {calls}"]
    return "\n".join(lines)


async def distill(
    model: TextModel, kind: str, episodes: list[Episode], current_body: str | None
) -> Distilled | None:
    return parse_distilled(await model(_SYSTEM, distill_prompt(kind, episodes, current_body)))
