"""What Jarvis sends to the model per call, and how much of it a prompt cache can reuse.

A realistic session through the real assembly (`build_app`: the files backend's SQLite memory,
real tools on real files, the gate): each turn the person asks about a file, the model calls
`read_file`, then answers; facts are remembered along the way. The scripted model records every
prompt as the OpenAI wire format sends it (tools, system prompt, messages). For each call:

- **prompt size**, in characters (tokens with `--base-url`: the llama.cpp server's `/tokenize`);
- **stable prefix**: the share of the call's prompt that is a prefix of the previous call's — what
  a provider's prompt cache or llama.cpp's slot cache reuses.

Two placements of recalled memory are compared on the same calls: Jarvis's (with this turn's
message, after the history) and seed 004's (appended to the system prompt, in front of the last
3 turns): the seed's placement changes the system prompt whenever recall changes.

    .venv/bin/python benchmarks/context_tokens.py [--turns 200] [--base-url http://127.0.0.1:8080]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.infra import build_app
from jarvis.app.settings import Settings
from jarvis.memory.service import PERSON_WORDS_HEADER
from jarvis.model_layer import FauxProvider, FauxResponse
from jarvis.model_layer.messages import LLMContext, ToolResultMessage
from jarvis.model_layer.providers.openai_wire import to_openai_messages, to_openai_tools

Prompt = list[dict[str, Any]]
MARKS = (1, 20, 200, 2000)


def recording_model(prompts: list[Prompt]) -> FauxProvider:
    def reply(ctx: LLMContext) -> FauxResponse | str:
        prompts.append(wire_prompt(ctx))
        last = ctx.messages[-1] if ctx.messages else None
        if isinstance(last, ToolResultMessage):
            return f"The file says: {last.content[:60]}"
        words = str(getattr(last, "content", "")).split()
        path = next((w for w in words if w.endswith(".txt")), "notes_1.txt")
        call = {"name": "read_file", "arguments": {"path": path}}
        return FauxResponse.model_validate({"tool_calls": [call]})

    return FauxProvider(script=reply)


def wire_prompt(ctx: LLMContext) -> Prompt:
    """What the OpenAI-compatible provider sends, in the order the Qwen/Hermes chat templates
    render it (llama.cpp: the system prompt, then the tools, then the messages)."""
    system: Prompt = [{"role": "system", "content": ctx.system_prompt}]
    tools: Prompt = [{"tools": to_openai_tools(ctx.tools)}] if ctx.tools else []
    return [*system, *tools, *to_openai_messages(ctx)[1:]]


def seed_placement(prompt: Prompt) -> Prompt:
    """The same call with the recalled memory moved into the system prompt (seed 004)."""
    moved = [dict(part) for part in prompt]
    users = [
        p for p in moved if p.get("role") == "user" and PERSON_WORDS_HEADER in str(p["content"])
    ]
    if not users:
        return moved
    user = users[-1]
    memory, _, words = str(user["content"]).partition(PERSON_WORDS_HEADER)
    user["content"] = words.strip()
    system = next(p for p in moved if p.get("role") == "system")
    system["content"] = f"{system['content']}\n\n{memory.strip()}"
    return moved


def as_text(prompt: Prompt) -> str:
    return "\n".join(json.dumps(part, ensure_ascii=False, sort_keys=True) for part in prompt)


def common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    low, high = 0, n
    while low < high:  # binary search on prefix equality (C-speed slices)
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


async def run_session(turns: int, home: Path) -> list[tuple[int, Prompt]]:
    """(turn, prompt) for every model call of a `turns`-turn session."""
    for index in range(1, 11):
        (home / f"notes_{index}.txt").write_text(f"note {index}: ship build {index}\n", "utf-8")
    settings = Settings(
        home=home,
        workspace=home,
        language="en",
        model={"provider": "recording", "model": "recording"},
        openloop={"enabled": False},
        scheduler={"enabled": False},
        procedures={"learn": False, "reflect": False},
    )
    app = build_app(settings)
    prompts: list[Prompt] = []
    model = recording_model(prompts)
    app.providers.register("recording", lambda _settings: model)
    builder = AgentRegistry(app).get("main")
    assert builder is not None
    session = await builder.create()
    calls: list[tuple[int, Prompt]] = []
    for turn in range(1, turns + 1):
        before = len(prompts)
        text = f"What does notes_{turn % 10 + 1}.txt say about build {turn}?"
        if turn % 7 == 0:
            text = f"/remember the build server for release {turn} is build-{turn}.local"
        await session.prompt(text)
        calls += [(turn, prompt) for prompt in prompts[before:]]
    await app.aclose()
    return calls


def tokenizer(base_url: str | None) -> Any:
    if not base_url:
        return len
    client = httpx.Client(base_url=base_url.rstrip("/").removesuffix("/v1"), timeout=60)

    def count(text: str) -> int:
        response = client.post("/tokenize", json={"content": text})
        response.raise_for_status()
        return len(response.json()["tokens"])

    return count


PLACEMENTS = {
    "Jarvis (memory with the turn's message)": lambda prompt: prompt,
    "seed 004 (memory in the system prompt)": seed_placement,
}


def report(calls: list[tuple[int, Prompt]], unit: str, count: Any) -> None:
    """Per placement: the size of a turn's first call and the share of it that is a prefix of
    the call before (the previous turn's last) — the reuse across turns; within a turn both
    placements send the same prefix."""
    print(f"| placement | turn | {unit}, first call | stable prefix of the first call |")
    print("|---|---|---|---|")
    for name, place in PLACEMENTS.items():
        texts = [(turn, as_text(place(prompt))) for turn, prompt in calls]
        first: dict[int, tuple[str, str]] = {}
        for (turn, text), (before, previous) in zip(texts[1:], texts, strict=False):
            if turn != before and turn not in first:
                first[turn] = (text, previous)
        shares = {turn: common_prefix(a, b) / len(a) for turn, (a, b) in first.items()}
        for mark in MARKS:
            if mark in first:
                print(f"| {name} | {mark} | {count(first[mark][0]):,} | {shares[mark]:.1%} |")
        later = [share for turn, share in shares.items() if turn >= 3]
        print(f"| {name} | 3–end, median | | {statistics.median(later):.1%} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--base-url", default=None, help="a llama.cpp server, for /tokenize")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        calls = asyncio.run(run_session(args.turns, Path(home)))
    unit = "tokens" if args.base_url else "characters"
    print(f"{args.turns} turns, {len(calls)} model calls\n")
    report(calls, unit, tokenizer(args.base_url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
