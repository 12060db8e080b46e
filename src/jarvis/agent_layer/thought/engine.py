"""The inner thought engine: one model call that PROPOSES a thought frame before the answer.

The template is `~/.jarvis/inner_thought.md` (a shipped default; edited files are picked up on the
next thought). The model's reply is parsed by a pure function; anything that is not a valid frame
(bad JSON, a wrong key, an unknown decision), a timeout, a provider error or a Stop gives no frame,
and the turn then runs exactly as with the engine off.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import get_args

from jarvis.agent_layer.thought.events import Decision
from jarvis.common.logging import get_logger
from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import ProviderError, TextDelta
from jarvis.model_layer.messages import LLMContext, UserMessage
from jarvis.model_layer.provider import Provider

_log = get_logger("jarvis.thought")

TEMPLATE_FILE = "inner_thought.md"
# The thought call's system prompt starts with this (the offline demo's model recognises it).
THOUGHT_MARKER = "[inner-thought]"
FRAME_MAX_CHARS = 1500
_DECISIONS = frozenset(get_args(Decision))
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


@dataclass(frozen=True)
class ThoughtFrame:
    interpretation: str
    decision: Decision
    confidence: float
    frame: str


def parse_frame(text: str) -> ThoughtFrame | None:
    """The frame in a model's reply (a JSON object, possibly fenced or with words around it), or
    None when any key is missing or wrong. The key names never change (seed 003)."""
    match = _OBJECT.search(text)
    if match is None:
        return None
    try:
        data = json.loads(match.group(0))
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    interpretation, decision = data.get("interpretation"), data.get("decision")
    confidence, frame = data.get("confidence"), data.get("frame")
    if not isinstance(interpretation, str) or not interpretation.strip():
        return None
    if not isinstance(decision, str) or decision.strip() not in _DECISIONS:
        return None
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return None
    if isinstance(frame, list):
        frame = "\n".join(str(item) for item in frame)
    if not isinstance(frame, str):
        return None
    return ThoughtFrame(
        interpretation=interpretation.strip()[:FRAME_MAX_CHARS],
        decision=decision.strip(),  # type: ignore[arg-type]
        confidence=max(0.0, min(1.0, float(confidence))),
        frame=frame.strip()[:FRAME_MAX_CHARS],
    )


class TemplateSource:
    """The template text: the person's file when it exists, else the shipped default. Re-read when
    the file's size or modification time changes (a stat per thought, no watcher)."""

    def __init__(self, path: Path | None, default: Callable[[], str] | None = None) -> None:
        self.path = path
        self.default = default or default_template
        self._stamp: tuple[int, int] | None = None
        self._text = self.default()

    def text(self) -> str:
        if self.path is None:
            return self._text
        try:
            st = self.path.stat()
        except OSError:
            self._stamp = None
            return self.default()
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            try:
                self._text = self.path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                _log.warning("template %s unreadable: %s", self.path, exc)
                return self.default()
            self._stamp = stamp
        return self._text


def default_template() -> str:
    return resources.files(__package__).joinpath(TEMPLATE_FILE).read_text(encoding="utf-8")


def fill_template(template: str, *, text: str, recent: str, open_loops: str, now: str) -> str:
    """`{{input}}`, `{{recent}}`, `{{open_loops}}`, `{{now}}`; other braces stay as written."""
    values = {"input": text, "recent": recent, "open_loops": open_loops, "now": now}
    return re.sub(
        r"\{\{\s*(input|recent|open_loops|now)\s*\}\}", lambda m: values[m.group(1)], template
    )


@dataclass(frozen=True)
class ThoughtResult:
    frame: ThoughtFrame | None
    reason: str = ""  # why there is no frame: timeout, provider_error, bad_output, aborted


class InnerThoughtEngine:
    def __init__(
        self,
        provider: Provider,
        model: str,
        template: TemplateSource,
        *,
        timeout_sec: float = 20.0,
        max_tokens: int = 400,
    ) -> None:
        self.provider = provider
        self.model = model
        self.template = template
        self.timeout_sec = timeout_sec
        self.max_tokens = max_tokens

    def context(self, *, text: str, recent: str, open_loops: str, now: str) -> LLMContext:
        body = fill_template(
            self.template.text(), text=text, recent=recent, open_loops=open_loops, now=now
        )
        system = f"{THOUGHT_MARKER} Think before the assistant answers. Reply with JSON only."
        return LLMContext(system_prompt=system, messages=[UserMessage(content=body)])

    async def think(self, ctx: LLMContext, abort: asyncio.Event) -> ThoughtResult:
        """One call, bounded by the timeout and by `abort`; never raises."""
        call = asyncio.ensure_future(self._call(ctx))
        stop = asyncio.ensure_future(abort.wait())
        try:
            done, _ = await asyncio.wait(
                {call, stop}, timeout=self.timeout_sec, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            stop.cancel()
        if call not in done:
            call.cancel()
            await asyncio.gather(call, return_exceptions=True)
            return ThoughtResult(None, "aborted" if abort.is_set() else "timeout")
        try:
            return call.result()
        except Exception as exc:  # a broken provider must not break the turn
            _log.warning("inner thought failed: %s", exc)
            return ThoughtResult(None, "provider_error")

    async def _call(self, ctx: LLMContext) -> ThoughtResult:
        parts: list[str] = []
        options = StreamOptions(max_tokens=self.max_tokens)
        async for event in self.provider.stream(self.model, ctx, options):
            if isinstance(event, TextDelta):
                parts.append(event.delta)
            elif isinstance(event, ProviderError):
                _log.warning("inner thought call failed: %s", event.message)
                return ThoughtResult(None, "provider_error")
        frame = parse_frame("".join(parts))
        return ThoughtResult(frame, "" if frame else "bad_output")
