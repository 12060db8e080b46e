"""The inner thought engine (issue 26 item 2): the frame parser, the template, the failure paths."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from jarvis.agent_layer.thought.engine import (
    InnerThoughtEngine,
    TemplateSource,
    ThoughtFrame,
    default_template,
    fill_template,
    parse_frame,
)
from jarvis.model_layer import FauxProvider, FauxResponse
from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import StreamEvent
from jarvis.model_layer.messages import LLMContext
from jarvis.model_layer.provider import Provider

GOOD = (
    '{"interpretation": "wants a plan", "decision": "use_tools", "confidence": 0.7,'
    ' "frame": "1. read"}'
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GOOD, ThoughtFrame("wants a plan", "use_tools", 0.7, "1. read")),
        (f"```json\n{GOOD}\n```", ThoughtFrame("wants a plan", "use_tools", 0.7, "1. read")),
        (
            f"Sure! Here: {GOOD} hope it helps",
            ThoughtFrame("wants a plan", "use_tools", 0.7, "1. read"),
        ),
        # a list frame is joined; confidence is clamped
        (
            '{"interpretation": "x", "decision": "answer", "confidence": 7, "frame": ["a", "b"]}',
            ThoughtFrame("x", "answer", 1.0, "a\nb"),
        ),
        (
            '{"interpretation": "x", "decision": "answer", "confidence": -1, "frame": ""}',
            ThoughtFrame("x", "answer", 0.0, ""),
        ),
        # anything else is no frame
        ("", None),
        ("I think the person wants a plan.", None),
        ('{"interpretation": "x", "decision": "answer", "confidence": 0.5', None),  # cut
        ('{"interpretation": "x", "decision": "shout", "confidence": 0.5, "frame": ""}', None),
        ('{"interpretation": "", "decision": "answer", "confidence": 0.5, "frame": ""}', None),
        ('{"interpretation": "x", "decision": "answer", "confidence": "high", "frame": ""}', None),
        ('{"interpretation": "x", "decision": "answer", "confidence": true, "frame": ""}', None),
        ('{"interpretation": "x", "decision": "answer", "confidence": 0.5}', None),
        ('{"interp": "x", "decision": "answer", "confidence": 0.5, "frame": ""}', None),
        ('[{"interpretation": "x"}]', None),
    ],
)
def test_parse_frame(text: str, expected: ThoughtFrame | None) -> None:
    assert parse_frame(text) == expected


def test_a_huge_frame_is_cut() -> None:
    long = "y" * 10_000
    frame = parse_frame(
        f'{{"interpretation": "{long}", "decision": "defer", "confidence": 0.1, "frame": "{long}"}}'
    )
    assert frame is not None and len(frame.frame) == 1500 and len(frame.interpretation) == 1500


def test_fill_template_replaces_only_its_keys() -> None:
    out = fill_template(
        '{{input}} | {{ recent }} | {{open_loops}} | {{now}} | {"json": 1} | {{other}}',
        text="hi {{recent}}",
        recent="R",
        open_loops="[1] x",
        now="N",
    )
    # the person's words are not re-expanded; JSON braces and unknown keys stay as written
    assert out == 'hi {{recent}} | R | [1] x | N | {"json": 1} | {{other}}'


def test_the_template_file_is_hot_reloaded_and_falls_back_to_the_default(tmp_path: Path) -> None:
    path = tmp_path / "inner_thought.md"
    source = TemplateSource(path)
    assert source.text() == default_template()  # no file yet
    path.write_text("one {{input}}")
    assert source.text() == "one {{input}}"
    path.write_text("two {{input}}")  # same size, same second: the mtime_ns differs
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    assert source.text() == "two {{input}}"
    path.unlink()
    assert source.text() == default_template()


class Hanging(Provider):
    """A model that never answers (a hung server)."""

    def __init__(self) -> None:
        self.started = asyncio.Event()

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        self.started.set()
        await asyncio.Event().wait()
        yield  # type: ignore[misc]  # pragma: no cover


class Raising(Provider):
    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        raise RuntimeError("socket closed")
        yield  # type: ignore[unreachable]  # pragma: no cover


def _engine(provider: Provider, timeout: float = 30.0) -> InnerThoughtEngine:
    return InnerThoughtEngine(provider, "m", TemplateSource(None), timeout_sec=timeout)


def _ctx(engine: InnerThoughtEngine) -> LLMContext:
    return engine.context(text="plan my week", recent="", open_loops="(none)", now="now")


async def test_a_good_reply_gives_a_frame_and_the_call_is_bounded() -> None:
    provider = FauxProvider([GOOD])
    engine = _engine(provider)
    result = await engine.think(_ctx(engine), asyncio.Event())
    assert result.frame is not None and result.reason == ""
    assert provider.calls[0].tools == []  # a thought never gets tools
    assert "plan my week" in provider.calls[0].messages[0].content


@pytest.mark.parametrize(
    ("provider", "reason"),
    [
        (FauxProvider([FauxResponse(text="not json at all")]), "bad_output"),
        (FauxProvider([FauxResponse(error="overloaded", error_kind="server")]), "provider_error"),
        (FauxProvider([]), "provider_error"),
        (Raising(), "provider_error"),
    ],
)
async def test_failures_give_no_frame(provider: Provider, reason: str) -> None:
    engine = _engine(provider)
    result = await engine.think(_ctx(engine), asyncio.Event())
    assert (result.frame, result.reason) == (None, reason)


async def test_a_hung_model_times_out() -> None:
    engine = _engine(Hanging(), timeout=0.01)
    result = await engine.think(_ctx(engine), asyncio.Event())
    assert (result.frame, result.reason) == (None, "timeout")


async def test_stop_ends_the_thought_at_once() -> None:
    provider = Hanging()
    engine = _engine(provider)
    abort = asyncio.Event()
    task = asyncio.create_task(engine.think(_ctx(engine), abort))
    await provider.started.wait()
    abort.set()
    result = await task
    assert (result.frame, result.reason) == (None, "aborted")
