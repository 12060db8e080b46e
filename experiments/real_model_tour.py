"""The README's tour against any OpenAI-compatible server, printed as a pass/fail table.

    .venv/bin/python experiments/real_model_tour.py --base-url http://host:11434/v1 --model llama3.1
    .venv/bin/python experiments/real_model_tour.py --smollm2      # starts xllamacpp + SmolLM2 here
    .venv/bin/python experiments/real_model_tour.py --base-url … --model … --thinking-engine auto

Steps: streaming chat (time to first token straight from the server and through Jarvis's
provider), a token-limit stop, a tool call (tool_choice "required"), a tool round, a context
overflow, then through a real Jarvis server (WebSocket, like the HUD): chat, DENY, ALLOW and the
AGENDA judge. Run from the repository root (it uses tests/support for the Jarvis server).

`--thinking-engine auto` (or `always`) turns the inner-thought call on in the Jarvis server and
adds a planning prompt; each Jarvis row then says how many thoughts started (a `thought_route`
with think and the engine on), how many gave a frame (`inner_thought`) and how the others ended
(`thought_end` reasons, e.g. bad_output when the model's JSON was unusable and the turn went on
without it). A row fails if a started thought has no `thought_end` or a turn does not end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from experiments._jarvis import jarvis_server, next_event, openai_model
from tests.integration.real_model.test_provider import BASH, CALL_GIT_STATUS
from tests.support.live_server import LiveServer, Tab

from jarvis.model_layer import (
    AssistantMessage,
    LLMContext,
    ModelSettings,
    ProviderError,
    Stop,
    TextDelta,
    ToolCall,
    ToolCallEvent,
    ToolResultMessage,
    UserMessage,
)
from jarvis.model_layer.providers.openai_provider import OpenAIProvider

PLAN = (
    "Plan my week: the report is due Friday, the dentist is Tuesday at 9 and I promised Mina "
    "a call. What should I do first, and why?"
)
HELLO = [{"role": "system", "content": "You are JARVIS."}, {"role": "user", "content": "Hello!"}]
Row = tuple[str, bool, float, str]


async def direct_ttft(base_url: str, model: str, max_tokens: int) -> float:
    """Seconds to the first content chunk, straight from the server (no Jarvis)."""
    body = {"model": model, "messages": HELLO, "max_tokens": max_tokens, "stream": True}
    async with httpx.AsyncClient(timeout=120) as http:
        start = time.perf_counter()
        async with http.stream("POST", f"{base_url}/chat/completions", json=body) as response:
            async for line in response.aiter_lines():
                if line.startswith("data: {") and json.loads(line[6:])["choices"][:1]:
                    delta = json.loads(line[6:])["choices"][0].get("delta") or {}
                    if delta.get("content"):
                        return time.perf_counter() - start
    raise RuntimeError("no content arrived")


async def provider_ttft(provider: OpenAIProvider, model: str) -> float:
    ctx = LLMContext(system_prompt=HELLO[0]["content"], messages=[UserMessage(content="Hello!")])
    start, first = time.perf_counter(), None
    async for event in provider.stream(model, ctx):  # read to the end: one request at a time
        if isinstance(event, TextDelta) and first is None:
            first = time.perf_counter() - start
    if first is None:
        raise RuntimeError("no text arrived")
    return first


async def provider_steps(args: argparse.Namespace, rows: list[Row]) -> None:
    settings = ModelSettings(
        base_url=args.base_url,
        model=args.model,
        api_key=args.api_key,
        max_tokens=args.max_tokens,
        temperature=0.0,
        tool_choice="required",
        max_retries=0,
    )
    provider = OpenAIProvider(settings, language="en")

    async def run(ctx: LLMContext) -> list[Any]:
        return [event async for event in provider.stream(args.model, ctx)]

    async def chat() -> str:
        direct, through = [], []
        for _ in range(6):  # interleaved, so both see the same warm prompt cache
            direct.append(await direct_ttft(args.base_url, args.model, args.max_tokens))
            through.append(await provider_ttft(provider, args.model))
        direct, through = direct[1:], through[1:]
        d, p = statistics.median(direct) * 1000, statistics.median(through) * 1000
        return f"TTFT median of 5: direct {d:.0f} ms, through Jarvis {p:.0f} ms (+{p - d:.0f})"

    async def length() -> str:
        story = LLMContext(messages=[UserMessage(content="Tell me a long story about the sea.")])
        stop = (await run(story))[-1]
        assert isinstance(stop, Stop) and stop.reason == "length", stop
        return "Stop(reason=length)"

    async def tool_call() -> str:
        ctx = LLMContext(messages=[UserMessage(content=CALL_GIT_STATUS)], tools=[BASH])
        events = await run(ctx)
        calls = [e.tool_call for e in events if isinstance(e, ToolCallEvent)]
        assert calls and calls[0].name == "bash", events[-1]
        return f"bash {calls[0].arguments}"

    async def tool_round() -> str:
        call = ToolCall(id="c1", name="bash", arguments={"command": "ls"})
        ctx = LLMContext(
            tools=[BASH],
            messages=[
                UserMessage(content="What is here?"),
                AssistantMessage(tool_calls=[call]),
                ToolResultMessage(tool_call_id="c1", tool_name="bash", content="notes.txt"),
            ],
        )
        last = (await run(ctx))[-1]
        assert isinstance(last, Stop), last
        return f"Stop(reason={last.reason})"

    async def overflow() -> str:
        ctx = LLMContext(messages=[UserMessage(content="hello world " * args.overflow_words)])
        (event,) = await run(ctx)
        assert isinstance(event, ProviderError) and event.kind == "context_overflow", event
        return event.message

    for name, step in [
        ("streaming chat", chat),
        ("token limit → length", length),
        ("tool call (required)", tool_call),
        ('tool round (content "")', tool_round),
        ("context overflow", overflow),
    ]:
        rows.append(await timed(name, step))
    await provider.aclose()


async def jarvis_steps(args: argparse.Namespace, rows: list[Row]) -> None:
    model = openai_model(args)
    with (
        tempfile.TemporaryDirectory() as home,
        jarvis_server(
            Path(home),
            language="en",
            model={**model, "tool_choice": "required"},
            openloop={"model": model},
            loop={"max_turns": 2, "overflow_resume": False},
            thinking={"engine": args.thinking_engine},
        ) as server,
    ):
        steps = [
            ("jarvis: chat", "Hello! Who are you?", None),
            ("jarvis: DENY", CALL_GIT_STATUS, "deny"),
            ("jarvis: ALLOW", CALL_GIT_STATUS, "allow"),
            ("jarvis: AGENDA judge", "I must send the report by 3 pm tomorrow.", None),
        ]
        if args.thinking_engine != "off":
            steps.append(("jarvis: thinking", PLAN, None))
        for name, text, answer in steps:
            rows.append(await timed(name, lambda t=text, a=answer: turn(server, t, a)))


async def turn(server: LiveServer, text: str, answer: str | None) -> str:
    tab = await Tab.open(server.ws_url())
    await tab.next("session")
    await tab.send(type="prompt", text=text)
    start, first, asked = time.perf_counter(), None, []
    thoughts = Thoughts()
    while True:
        event = await next_event(tab, 120)
        thoughts.see(event)
        if event["type"] == "message_update" and first is None:
            first = time.perf_counter() - start
        if event["type"] == "approval_request":
            asked.append(event["pattern"])
            await tab.send(type="approval", id=event["id"], answer=answer or "deny")
            answer = None
        if event["type"] == "agent_error":
            raise AssertionError(event["message"])
        if event["type"] == "agent_end":
            break
    await tab.close()
    if answer is not None and not asked:
        raise AssertionError("the model did not call a tool")
    shown = f"first text after {first * 1000:.0f} ms" if first is not None else "no text"
    if thoughts.started != len(thoughts.ends):
        raise AssertionError(f"{thoughts.started} thoughts started, {len(thoughts.ends)} ended")
    return f"{shown}; asked: {asked or 'nothing'}{thoughts.note()}"


class Thoughts:
    """The inner thoughts of one turn: started, framed, and how each ended."""

    def __init__(self) -> None:
        self.started = self.framed = 0
        self.ends: list[str] = []

    def see(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "thought_route" and event.get("think") and event.get("engine") != "off":
            self.started += 1
        elif kind == "inner_thought":
            self.framed += 1
        elif kind == "thought_end":
            self.ends.append("ok" if event.get("ok") else event.get("reason") or "failed")

    def note(self) -> str:
        if not self.started:
            return ""
        return f"; thoughts: {self.started} started, {self.framed} framed, ended {self.ends}"


async def timed(name: str, step: Callable[[], Awaitable[str]]) -> Row:
    start = time.perf_counter()
    try:
        note = await step()
        ok = True
    except Exception as exc:
        note, ok = f"{type(exc).__name__}: {exc}"[:160], False
    return name, ok, time.perf_counter() - start, note


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base-url", default="")
    parser.add_argument("--model", default="")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--max-tokens", type=int, default=24)
    parser.add_argument("--overflow-words", type=int, default=4500, help="'hello world' repeats")
    parser.add_argument("--smollm2", action="store_true", help="start xllamacpp + SmolLM2 here")
    parser.add_argument(
        "--thinking-engine", choices=("off", "auto", "always"), default="off", help="inner thought"
    )
    args = parser.parse_args()
    keep: Any = None
    if args.smollm2:
        from tests.integration.real_model.conftest import start_real_model

        keep = start_real_model()
        args.base_url, args.model = keep.base_url, keep.model
    if not args.base_url or not args.model:
        parser.error("give --base-url and --model, or --smollm2")
    rows: list[Row] = []
    asyncio.run(provider_steps(args, rows))
    asyncio.run(jarvis_steps(args, rows))
    print(f"\n{args.base_url}  model={args.model}\n")
    print(f"| {'step':<26} | result | seconds | note")
    print(f"|{'-' * 28}|--------|---------|-----")
    for name, ok, seconds, note in rows:
        print(f"| {name:<26} | {'pass' if ok else 'FAIL':<6} | {seconds:7.2f} | {note}")
    del keep
    return 0 if all(ok for _, ok, _, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
